/**
 * Add-on manifests (scheduler-plugins' CRDs and RBAC), fetched once into the cache as kwokctl
 * does: `<cache>/manifest/<sha256 of the source>.yaml`, so a second create reads the file and
 * needs no network.
 *
 * Where they come from, in order:
 * - the cache;
 * - a source that is not an http(s) URL: `kubectl kustomize <source>` (kwokctl's rule), which
 *   also takes a local directory;
 * - a GitHub tag URL of a kubernetes-sigs repository (kwokctl's defaults,
 *   `https://github.com/kubernetes-sigs/<repo>/raw/refs/tags/<tag>/<path>`): the same file from the
 *   Go module `sigs.k8s.io/<repo>@<tag>`, when `go` is on PATH. The module proxy is reachable
 *   where GitHub may not be, and go checks the module against the checksum database;
 * - the URL itself.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Executor } from '../exec/executor.js';
import { ArtifactError, ExternalCommandError } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { fetchText } from './download.js';
import { detectGo, runGo } from './gobuild.js';
import { goReason } from './cluster-autoscaler.js';

/** kwokctl's cache path for a manifest source. */
export function manifestCachePath(cacheDir: string, source: string): string {
  return path.join(cacheDir, 'manifest', `${createHash('sha256').update(source).digest('hex')}.yaml`);
}

/** The Go module file a kubernetes-sigs GitHub tag URL names, or undefined for any other source. */
export function goModuleFileOf(source: string): { module: string; version: string; file: string } | undefined {
  const m = /^https:\/\/github\.com\/kubernetes-sigs\/([A-Za-z0-9_.-]+)\/raw\/(?:refs\/tags\/)?(v\d+\.\d+\.\d+[^/]*)\/(.+)$/.exec(source);
  if (!m) return undefined;
  const [, repo, version, file] = m as unknown as [string, string, string, string];
  if (file.split('/').includes('..')) return undefined;
  return { module: `sigs.k8s.io/${repo}`, version, file };
}

export interface ManifestContext {
  cacheDir: string;
  executor: Executor;
  /** kubectl, for sources that are not URLs. */
  kubectl: string;
  logger?: Logger;
  signal?: AbortSignal;
}

/** The manifest's text; under dry-run, kwokctl's `# Download <url> to <path>` line and "". */
export async function ensureManifest(source: string, ctx: ManifestContext): Promise<string> {
  const cachePath = manifestCachePath(ctx.cacheDir, source);
  const isUrl = /^https?:\/\//.test(source);
  return ctx.executor.call({
    argv: [],
    note: isUrl ? `Download ${source} to ${cachePath}` : `Build ${source} by kubectl kustomize to ${cachePath}`,
    dryRunResult: '',
    perform: async () => {
      if (existsSync(cachePath)) return readFile(cachePath, 'utf8');
      const text = isUrl ? await fetchManifest(source, ctx) : await ctx.executor.run({ command: ctx.kubectl, args: ['kustomize', source] });
      // Written under a temporary name and renamed: a killed create leaves no half file to be trusted later.
      await mkdir(path.dirname(cachePath), { recursive: true });
      const tmp = `${cachePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await writeFile(tmp, text, { mode: 0o644 });
        await rename(tmp, cachePath);
      } finally {
        await rm(tmp, { force: true });
      }
      return text;
    },
  });
}

async function fetchManifest(url: string, ctx: ManifestContext): Promise<string> {
  const logger = ctx.logger ?? silentLogger;
  const fromModule = goModuleFileOf(url);
  let moduleFailure = '';
  if (fromModule) {
    const go = await detectGo('go', ctx.signal);
    if (go) {
      try {
        await mkdir(ctx.cacheDir, { recursive: true });
        const out = await runGo(['mod', 'download', '-json', `${fromModule.module}@${fromModule.version}`], { go: go.command, cwd: ctx.cacheDir, env: { ...process.env, GOFLAGS: '-mod=mod', GOWORK: 'off' }, cacheDir: ctx.cacheDir, ...(ctx.signal ? { signal: ctx.signal } : {}) });
        const dir = (JSON.parse(out) as { Dir?: string }).Dir;
        const file = dir === undefined ? undefined : path.join(dir, fromModule.file);
        if (file !== undefined && existsSync(file)) {
          logger.debug(`manifest ${url}: from the Go module ${fromModule.module}@${fromModule.version}`);
          return await readFile(file, 'utf8');
        }
        moduleFailure = `${fromModule.module}@${fromModule.version} has no ${fromModule.file}`;
      } catch (error) {
        moduleFailure = `${fromModule.module}@${fromModule.version}: ${goReason(error instanceof ExternalCommandError ? error.output : String(error))}`;
      }
      logger.debug(`manifest ${url}: not from the Go module (${moduleFailure}); downloading it`);
    }
  }
  try {
    return await fetchText(url, { logger, ...(ctx.signal ? { signal: ctx.signal } : {}) });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ArtifactError(`cannot get the manifest ${url}: ${reason}${moduleFailure ? `; nor from the Go module proxy (${moduleFailure})` : ''}`, {
      hint: `put the file at ${manifestCachePath(ctx.cacheDir, url)}, or name a local copy with KWOK_SCHEDULER_PLUGINS_MANIFESTS`,
    });
  }
}
