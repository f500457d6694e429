/**
 * cluster-autoscaler with only its kwok cloud provider, the tool for autoscaling kwokts clusters.
 * Two ways to get it, both into the Go build cache directory:
 * - from its module, `sigs.k8s.io/cluster-autoscaler/kwok@<version>`, through the generic wrapper
 *   module build (gobuild.ts), into `<cache>/gobuild/cluster-autoscaler/<version>/`;
 * - from a local checkout (when the module proxy does not serve it, or to test a change to the
 *   provider). Inside the checkout its own go.mod and replace directives apply, so a plain
 *   `go build` works; only the entry point differs by layout:
 *   - sigs.k8s.io/cluster-autoscaler: the kwok-only main package in `kwok/`;
 *   - k8s.io/autoscaler/cluster-autoscaler (the `cluster-autoscaler/` folder of kubernetes/autoscaler,
 *     also accepted at the repository root): the main package, with `-tags kwok` so the builder
 *     links only the kwok provider.
 *   The binary goes to `<cache>/gobuild/cluster-autoscaler/source/cluster-autoscaler`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { ExternalCommandError, PreflightError, UsageError } from '../util/errors.js';
import { silentLogger } from '../util/log.js';
import { withFileLock } from './download.js';
import { buildFromGoModules, CLUSTER_AUTOSCALER_MODULE, detectGo, parseGoMod, runGo, type GoBuildOptions, type GoBuildResult } from './gobuild.js';
import { loadExeca } from '../exec/load-execa.js';

export const LEGACY_CLUSTER_AUTOSCALER_MODULE = 'k8s.io/autoscaler/cluster-autoscaler';

export interface SourceBuildPlan {
  /** The module directory `go build` runs in. */
  moduleDir: string;
  module: string;
  /** The package to build, relative to moduleDir. */
  pkg: string;
  tags: string[];
  outDir: string;
  binary: string;
}

/**
 * Where and how to build (pure apart from reading go.mod files). Throws UsageError when `dir` is
 * not a cluster-autoscaler checkout.
 */
export async function planClusterAutoscalerSourceBuild(dir: string, cacheDir: string): Promise<SourceBuildPlan> {
  const root = path.resolve(dir);
  const outDir = path.join(cacheDir, 'gobuild', 'cluster-autoscaler', 'source');
  const base = { outDir, binary: path.join(outDir, 'cluster-autoscaler') };
  for (const moduleDir of [root, path.join(root, 'cluster-autoscaler')]) {
    const goMod = path.join(moduleDir, 'go.mod');
    if (!existsSync(goMod)) continue;
    const module = parseGoMod(await readFile(goMod, 'utf8')).module ?? '';
    if (module === CLUSTER_AUTOSCALER_MODULE && existsSync(path.join(moduleDir, 'kwok', 'main.go'))) return { ...base, moduleDir, module, pkg: './kwok', tags: [] };
    if (module === LEGACY_CLUSTER_AUTOSCALER_MODULE) return { ...base, moduleDir, module, pkg: '.', tags: ['kwok'] };
  }
  throw new UsageError(`${dir} is not a cluster-autoscaler checkout (no go.mod of ${CLUSTER_AUTOSCALER_MODULE} with kwok/main.go, nor of ${LEGACY_CLUSTER_AUTOSCALER_MODULE})`, {
    hint: 'pass the directory of a clone of kubernetes-sigs/cluster-autoscaler (or kubernetes/autoscaler)',
  });
}

export interface SourceBuildResult {
  binary: string;
  durationMs: number;
}

/** Builds the kwok cluster-autoscaler from a checkout into the cache; rebuilds each time (Go's build cache keeps that quick). */
export async function buildClusterAutoscalerFromSource(dir: string, options: GoBuildOptions): Promise<SourceBuildResult> {
  const started = Date.now();
  const plan = await planClusterAutoscalerSourceBuild(dir, options.cacheDir);
  const logger = options.logger ?? silentLogger;
  const go = await detectGo(options.go ?? 'go', options.signal);
  if (!go) throw new PreflightError('cannot build cluster-autoscaler: the go tool was not found on PATH', { hint: 'install Go (https://go.dev/dl/) and try again' });
  return withFileLock(plan.outDir, { ...(options.logger ? { logger: options.logger } : {}), ...(options.signal ? { signal: options.signal } : {}), tuning: { lockWaitMs: 3_600_000, ...options.tuning } }, async () => {
    await mkdir(plan.outDir, { recursive: true });
    const tmp = path.join(plan.outDir, `.cluster-autoscaler.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    logger.info(`building ${plan.module} (${plan.pkg}${plan.tags.length ? `, -tags ${plan.tags.join(',')}` : ''}) in ${plan.moduleDir} with ${go.version}`);
    try {
      const args = ['build', '-trimpath', '-ldflags', '-s -w', ...(plan.tags.length ? ['-tags', plan.tags.join(',')] : []), '-o', tmp, plan.pkg];
      await runGo(args, {
        go: go.command,
        cwd: plan.moduleDir,
        env: { CGO_ENABLED: '0', GOWORK: 'off' },
        cacheDir: options.cacheDir,
        ...(options.signal ? { signal: options.signal } : {}),
        onLine: (line) => logger.debug(`go: ${line}`),
      });
      const execa = await loadExeca();
      const check = await execa(tmp, ['--help'], { reject: false, timeout: 60_000, all: true, stdin: 'ignore' });
      if (!String(check.all ?? '').includes('--cloud-provider')) {
        throw new ExternalCommandError(`the binary built from ${plan.moduleDir} does not look like cluster-autoscaler (its --help names no --cloud-provider)`, [tmp, '--help'], String(check.all ?? ''));
      }
      await rename(tmp, plan.binary);
    } finally {
      await rm(tmp, { force: true }).catch(() => undefined);
    }
    return { binary: plan.binary, durationMs: Date.now() - started };
  });
}

/**
 * What go's output says went wrong, in one line. `go mod download -json` puts it in an "Error"
 * field; a module proxy's refusal there reads "<module>@<version>: reading <url>: 403 Forbidden"
 * followed by the server's answer, which becomes "the module proxy answered 403 Forbidden
 * (<answer>)".
 */
export function goReason(output: string): string {
  const fromJson = /"Error":\s*"((?:[^"\\]|\\.)*)"/.exec(output)?.[1];
  const text = fromJson !== undefined ? (JSON.parse(`"${fromJson}"`) as string) : output;
  const refused = /reading (\S+): (\d{3} [^\n]*?)\s*(?:\n\s*server response:\s*([^\n]*))?$/m.exec(text);
  if (refused) {
    const proxy = /^https?:\/\/[^/]+/.exec(refused[1] as string)?.[0];
    const answer = refused[3]?.trim().replace(/\.$/, '');
    return `the module proxy${proxy ? ` (${proxy})` : ''} answered ${refused[2]}${answer ? ` (${answer})` : ''}`;
  }
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.find((l) => /not available|not found|no such file|forbidden|unknown revision|disabled/i.test(l)) ?? lines[lines.length - 1] ?? '';
}

/**
 * Builds `sigs.k8s.io/cluster-autoscaler/kwok@version` (cached). The usual failure, a module proxy
 * that does not serve the module or that version, is named with go's own reason and what to do.
 */
export async function buildClusterAutoscalerFromModule(version: string, options: GoBuildOptions): Promise<GoBuildResult> {
  try {
    return await buildFromGoModules('cluster-autoscaler', version, options);
  } catch (error) {
    if (error instanceof ExternalCommandError && error.command[1] === 'mod' && error.command[2] === 'download') {
      const reason = goReason(error.output);
      // The reason is the whole story; go's JSON under it would only repeat it (no output, no cause).
      throw new ExternalCommandError(`cannot download ${CLUSTER_AUTOSCALER_MODULE}@${version}${reason ? `: ${reason}` : ''}`, error.command, '', {
        hint:
          'set KWOK_CLUSTER_AUTOSCALER_VERSION to a version the proxy serves, or build from a checkout: `kwokts artifacts build cluster-autoscaler --source DIR` ' +
          '(a clone of kubernetes-sigs/cluster-autoscaler, or of kubernetes/autoscaler at a release tag such as cluster-autoscaler-1.36.1)',
      });
    }
    throw error;
  }
}
