/**
 * Start a container engine of the tests' own (test/engines/<engine>.sh, idempotent) and make the
 * images under kwokctl's default names; returns the variables that point kwokts and the engine's
 * CLI at it. A missing prerequisite is an error, never a silent pass.
 */
import { execa } from 'execa';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureTestImages, podmanEnv, type TestEngine } from './images.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface EngineUnderTest {
  engine: TestEngine;
  env: Record<string, string>;
}

/** The last warnings and errors in the engine daemon's own log (test/engines/<engine>.sh writes it), for failure messages. */
export function engineLogTail(engine: TestEngine, lines = 15): string {
  const root = process.env.KWOKTS_TEST_ENGINES ?? '/var/lib/kwokts-test';
  const file = join(root, engine === 'docker' ? 'dockerd.log' : 'podman-service.log');
  try {
    return `${file} ends with:\n${readFileSync(file, 'utf8').trimEnd().split('\n').filter((l) => !/level=(info|debug)|shim disconnected/.test(l)).slice(-lines).join('\n')}`;
  } catch {
    return `(no ${file})`;
  }
}

export async function startEngine(engine: TestEngine): Promise<EngineUnderTest> {
  const script = join(ROOT, 'test', 'engines', `${engine}.sh`);
  const result = await execa('bash', [script], { reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`could not start ${engine} for the tests:\n${String(result.all)}`);
  const host = String(result.stdout).trim().split('\n').pop()!;
  const env: Record<string, string> = engine === 'docker' ? { DOCKER_HOST: host } : { CONTAINER_HOST: host, ...podmanEnv() };
  // The engine's CLI (images, leak checks) must reach the same engine.
  Object.assign(process.env, env);
  await ensureTestImages(engine);
  return { engine, env };
}
