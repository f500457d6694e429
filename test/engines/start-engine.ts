/**
 * Start a container engine of the tests' own (test/engines/<engine>.sh, idempotent) and make the
 * images under kwokctl's default names; returns the variables that point kwokts and the engine's
 * CLI at it. A missing prerequisite is an error, never a silent pass.
 */
import { execa } from 'execa';
import { join, resolve } from 'node:path';
import { ensureTestImages, podmanEnv, type TestEngine } from './images.js';

const ROOT = resolve(import.meta.dirname, '../..');

export interface EngineUnderTest {
  engine: TestEngine;
  env: Record<string, string>;
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
