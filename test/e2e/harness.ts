/**
 * Shared e2e plumbing: run the built CLI as a user would, in an isolated KWOK_WORKDIR and
 * KUBECONFIG, sharing only the binary cache (the Go-built binaries are expensive).
 */
import { execa, type ResultPromise } from 'execa';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { createServer } from 'node:net';
import { request as httpsRequest } from 'node:https';
import { deferExtraCaCerts } from '../../src/util/extra-ca-certs.js';
import { findFreePort } from '../../src/cluster/ports.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin', 'run.cjs');
/**
 * How kwokts run as `node BIN` names itself in its hints (src/cli/invocation.ts): the script
 * relative to the test's working directory when it is under it, else its absolute path.
 */
export const INVOKED = `node ${relative(process.cwd(), BIN).startsWith('..') ? BIN : relative(process.cwd(), BIN)}`;
/** INVOKED in a regular expression. */
export const INVOKED_RE = INVOKED.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * How long waitFor and LineWatch.until wait at least. Deadlines in e2e tests only guard against a
 * hang, never assert speed: whatever a caller asks, they are at least this, so a loaded machine
 * makes a test slower, not red. (Assert sequences of states with watchLines, not short deadlines.)
 */
export const HANG_GUARD_MS = 180_000;

export interface Sandbox {
  workdir: string;
  kubeconfig: string;
  env: Record<string, string>;
  cleanup(): void;
}

/** A user's kubeconfig with an unrelated context, to prove we never disturb it. */
export const USER_KUBECONFIG = `apiVersion: v1
kind: Config
clusters:
- cluster:
    server: https://example.invalid:6443
  name: mine
contexts:
- context:
    cluster: mine
    user: me
  name: mine
current-context: mine
users:
- name: me
  user:
    token: secret-token
preferences: {}
`;

export function sandbox(): Sandbox {
  const dir = mkdtempSync(join(tmpdir(), 'kwokts-e2e-'));
  const workdir = join(dir, 'workdir');
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, USER_KUBECONFIG, { mode: 0o600 });
  const env = {
    KWOK_WORKDIR: workdir,
    KUBECONFIG: kubeconfig,
    KWOK_CACHE_DIR: process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache'),
    // Explicit: with docker or podman installed, auto-detection would pick a container runtime.
    KWOK_RUNTIME: 'binary',
    CI: 'true',
  };
  return {
    workdir,
    kubeconfig,
    env,
    cleanup: () => {
      // Best effort: kill whatever a failed test left, then remove the sandbox.
      for (const pid of recordedPids(workdir)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          /* gone */
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Where `withoutOclif` points Node: it makes any import of @oclif/core fail. */
const NO_OCLIF = join(ROOT, 'test', 'e2e', 'doubles', 'no-oclif', 'register.mjs');

/** `withoutOclif`: loading oclif fails, so a command that succeeds ran on the fast path (src/cli/fast-path.ts). */
export async function kwokts(box: Sandbox, args: string[], options: { input?: string; timeoutMs?: number; withoutOclif?: boolean } = {}): Promise<CliResult> {
  const result = await execa('node', [...(options.withoutOclif ? ['--import', NO_OCLIF] : []), BIN, ...args], {
    env: cliEnv(box),
    reject: false,
    input: options.input,
    timeout: options.timeoutMs ?? 300_000,
  });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

/**
 * The message for an assertion on a CLI call that should have succeeded: the exit code and the
 * lines that are not progress first (a CI log may show only the first lines of a long message,
 * and progress comes first in stderr), then the whole stderr.
 */
export function failure(result: CliResult): string {
  const progress = /(\.\.\.|done \([\d.]+s\))$/;
  const lines = result.stderr.split('\n').filter((line) => line.trim() !== '' && !progress.test(line.trim()));
  return [`exit ${result.exitCode}: ${lines.join('\n') || result.stdout.slice(-2000)}`, '--- stderr ---', result.stderr].join('\n');
}

/** Where `forbidSources` and `forbidBuiltins` point Node (see its header). */
const FORBID_SOURCES = join(ROOT, 'test', 'e2e', 'doubles', 'forbid-sources', 'register.mjs');

/**
 * `kwokts` as npm installs it: the package's "bin" entry (bin/kwokts, the sh launcher) behind a
 * relative symlink in a prefix's bin directory, found on PATH by name. `withoutNode` puts a
 * `node` first on PATH that only fails (exit 97, "node was started"), to show a call that never
 * starts Node. `forbidSources` makes the command fail if Node loads a bundle holding one of these
 * sources (named as esbuild's `// path` comments name them), `forbidBuiltins` if it loads one of
 * these Node built-ins (exit 98), so a success proves it never did.
 */
export async function kwoktsInstalled(
  box: Sandbox,
  args: string[],
  options: { input?: string; withoutNode?: boolean; forbidSources?: string[]; forbidBuiltins?: string[] } = {},
): Promise<CliResult> {
  const prefix = join(box.workdir, '..', 'npm-prefix');
  const bin = join(prefix, 'bin');
  const noNode = join(prefix, 'no-node');
  if (!existsSync(join(bin, 'kwokts'))) {
    mkdirSync(bin, { recursive: true });
    const entry = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.kwokts!;
    symlinkSync(relative(bin, join(ROOT, entry)), join(bin, 'kwokts'));
    mkdirSync(noNode);
    writeFileSync(join(noNode, 'node'), '#!/bin/sh\necho "node was started" >&2\nexit 97\n', { mode: 0o755 });
  }
  const path = [bin, ...(options.withoutNode ? [noNode] : [dirname(process.execPath)]), process.env.PATH ?? ''].join(':');
  const forbid =
    options.forbidSources || options.forbidBuiltins
      ? { NODE_OPTIONS: `--import=${FORBID_SOURCES}`, KWOKTS_TEST_FORBIDDEN_SOURCES: (options.forbidSources ?? []).join(','), KWOKTS_TEST_FORBIDDEN_BUILTINS: (options.forbidBuiltins ?? []).join(',') }
      : {};
  const result = await execa('kwokts', args, { env: { ...process.env, ...box.env, PATH: path, ...forbid }, reject: false, input: options.input, timeout: 300_000 });
  return { exitCode: result.exitCode ?? -1, stdout: String(result.stdout), stderr: String(result.stderr) };
}

export function spawnKwokts(box: Sandbox, args: string[]): ResultPromise {
  return execa('node', [BIN, ...args], { env: cliEnv(box), reject: false });
}

/**
 * The environment `node bin/run.cjs` runs with: the sandbox's, with NODE_EXTRA_CA_CERTS deferred
 * as bin/kwokts (what npm installs) defers it. So the Node side's taking it back is exercised by
 * every call, and on a machine that sets it (a TLS-inspecting proxy) each call does not pay
 * Node's parse of the bundle at start (~90 ms on a small VM) hundreds of times a run.
 */
export function cliEnv(box: Sandbox): Record<string, string | undefined> {
  return deferExtraCaCerts({ ...process.env, ...box.env });
}

/**
 * A long-running command (typically `kubectl get ... --watch -o jsonpath=...{"\\n"}`) whose output
 * lines are kept as they arrive, so a test can assert the sequence of states an object went
 * through instead of polling and hoping to catch a short-lived one.
 */
export interface LineWatch {
  readonly lines: readonly string[];
  /** Resolves with the first line (already seen or still to come) that matches; the deadline only guards against a hang. */
  until(what: string, match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  stop(): Promise<void>;
}

export function watchLines(box: Sandbox, args: string[]): LineWatch {
  const child = spawnKwokts(box, args);
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) if (line.trim() !== '') lines.push(line.trim());
    for (const wake of waiters) wake();
  });
  return {
    lines,
    until: (what, match, timeoutMs = HANG_GUARD_MS) =>
      new Promise<string>((resolve, reject) => {
        const check = () => {
          const found = lines.find(match);
          if (found === undefined) return;
          cleanup();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for ${what}; lines seen: ${JSON.stringify(lines)}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      child.kill('SIGINT');
      await child.catch(() => undefined);
    },
  };
}

/** Pids from every cluster's pid files (read before a delete, to check afterwards). */
export function recordedPids(workdir: string): number[] {
  const clusters = join(workdir, 'clusters');
  if (!existsSync(clusters)) return [];
  const pids: number[] = [];
  for (const name of readdirSync(clusters)) {
    const dir = join(clusters, name, 'pids');
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)) pids.push(Number(readFileSync(join(dir, f), 'utf8').trim()));
  }
  return pids.filter((p) => p > 0);
}

/** Alive and not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '');
  } catch {
    return false;
  }
}

/** Ports freePort has handed out in this process: the kernel readily offers a just-closed port again. */
const handedOut = new Set<number>();

/**
 * A TCP port free on loopback right now, chosen as create chooses a cluster's ports (below the
 * kernel's ephemeral range, so no outgoing connection takes it before the test's server binds it;
 * another process still may), never one this process was given before: two ports a test asks for
 * are two different ports.
 */
export async function freePort(): Promise<number> {
  const port = await findFreePort(handedOut);
  handedOut.add(port);
  return port;
}

export async function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(true));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/** Ports recorded in a cluster's kwok.yaml (read before delete). */
export function recordedPorts(workdir: string, cluster: string): number[] {
  const text = readFileSync(join(workdir, 'clusters', cluster, 'kwok.yaml'), 'utf8');
  return [...text.matchAll(/^\s+port: (\d+)$/gm)].map((m) => Number(m[1]));
}

/** Polls until a condition holds; see HANG_GUARD_MS. */
export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000, intervalMs = 250): Promise<void> {
  const started = Date.now();
  const deadline = started + Math.max(timeoutMs, HANG_GUARD_MS);
  while (Date.now() < deadline) {
    if (await check()) {
      // How long each wait took, for a slow run looked into by hand (never asserted on).
      if (process.env.KWOKTS_E2E_TRACE) process.stderr.write(`waited ${((Date.now() - started) / 1000).toFixed(1)}s for ${what}\n`);
      return;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Why an optional artifact the setup did not build (jaeger, the kind node image) is missing, if it
 * is: test/setup-prerequisites.sh writes .kwokts-test/unbuilt/<name> when its time budget ran out
 * or the build failed. The e2e case then skips saying so, instead of building for half an hour.
 */
export function unbuiltReason(name: string): string | undefined {
  const marker = join(ROOT, '.kwokts-test', 'unbuilt', name);
  return existsSync(marker) ? readFileSync(marker, 'utf8').trim() : undefined;
}

/** Fail loudly (not silently pass) when the machine lacks what e2e needs. */
export function requireBinaries(): void {
  const cache = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
  if (!existsSync(cache)) throw new Error(`no binary cache at ${cache}: run \`bash test/setup-prerequisites.sh\` first`);
}

/** Live processes whose command line mentions a path (to catch duplicates or leaks). */
export function processesMentioning(path: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (cmdline.includes(path) && isAlive(Number(entry))) out.push(Number(entry));
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

/**
 * Whether `port` is listening by a process whose command line mentions `marker` (a sandbox
 * path). Freed ports are soon reused by unrelated processes on a busy machine (other tests'
 * clusters pick free ports too), so "still listening" alone would blame us for them. A
 * listener whose owner cannot be read counts as ours, to stay strict.
 */
export async function isListeningFor(port: number, marker: string): Promise<boolean> {
  const result = await execa('ss', ['-ltnpH', `sport = :${port}`], { reject: false });
  // Without ss, a failed bind is the best sign there is (strict, but also fooled by closing connections).
  if (result.exitCode !== 0) return isListening(port);
  // No LISTEN socket: the bind probe can still fail for a moment while the killed server's
  // connections close (seen after delete's SIGKILL), but nothing listens there.
  if (String(result.stdout).trim() === '') return false;
  const pids = [...String(result.stdout).matchAll(/pid=(\d+)/g)].map((m) => Number(m[1]));
  if (pids.length === 0) return true;
  return pids.some((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
    } catch {
      return false;
    }
  });
}

/** Status of an https GET (server certificate not checked: kcm and the scheduler serve self-signed ones), optionally with a client certificate; or the connection error. */
export function insecureHttpsStatus(port: number, path: string, client?: { cert: string; key: string }, token?: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        rejectUnauthorized: false,
        timeout: 10_000,
        agent: false,
        ...(client ? { cert: readFileSync(client.cert), key: readFileSync(client.key) } : {}),
        ...(token ? { headers: { Authorization: `Bearer ${token}` } } : {}),
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve(error.message));
    req.end();
  });
}

/** The services jaeger (its query port on loopback) has traces of; none while it does not answer. */
export async function jaegerServices(port: number): Promise<string[]> {
  const res = await fetch(`http://127.0.0.1:${port}/api/services`).catch(() => undefined);
  const body = res?.ok ? ((await res.json()) as { data?: string[] | null }) : undefined;
  return body?.data ?? [];
}

/** A dry-run transcript with each engine command (printed one word per line, as kwokctl) on one line. */
export function oneLinePerCommand(transcript: string): string {
  return transcript.replace(/ \\\n {2}/g, ' ');
}

/**
 * The kectl to test with: KWOK_KECTL_BINARY, else the one test/setup-prerequisites.sh builds,
 * else one on PATH; undefined when there is none.
 */
export function availableKectl(): string | undefined {
  if (process.env.KWOK_KECTL_BINARY && existsSync(process.env.KWOK_KECTL_BINARY)) return process.env.KWOK_KECTL_BINARY;
  const cache = process.env.KWOK_CACHE_DIR ?? join(homedir(), '.kwok', 'cache');
  const built = join(cache, 'test-tools', 'kectl', 'v0.0.10', 'kectl');
  if (existsSync(built)) return built;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) if (dir && existsSync(join(dir, 'kectl'))) return join(dir, 'kectl');
  return undefined;
}

/** Writes zeros into `file` until the file system says it is full (a full-disk case's set-up). */
export function fillDisk(file: string): void {
  const fd = openSync(file, 'w');
  const block = Buffer.alloc(1 << 20);
  try {
    for (;;) {
      try {
        writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        // The last partial block: whatever is left, a page at a time.
        try {
          for (;;) writeSync(fd, block, 0, 4096);
        } catch {
          return;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}
