/**
 * What `--runtime kind` needs that may be missing on a machine without a container registry or
 * GitHub downloads: the kind binary (built from sigs.k8s.io/kind on the Go module proxy) and a
 * node image (kindest/node, else the one `kwokts artifacts build kind-node-image` makes).
 */
import { buildFromGoModules, detectGo } from './gobuild.js';
import { buildKindNodeImage, localKindNodeImage } from './kind-node-image.js';
import { findOnPath, goBuildPath } from './sources.js';
import type { ClusterOptionValues } from '../config/options.js';
import { KIND_VERSION, normalizeVersion } from '../config/versions.js';
import { loadExeca } from '../exec/load-execa.js';
import type { Logger } from '../util/log.js';
import { existsSync } from 'node:fs';

export interface KindResolveOptions {
  cacheDir: string;
  logger: Logger;
  signal?: AbortSignal;
}

export function kindVersionOf(values: Pick<ClusterOptionValues, 'kindVersion'>): string {
  return normalizeVersion(values.kindVersion || KIND_VERSION);
}

/**
 * The kind to run: --kind-binary, else `kind` on PATH, else the Go-built one in the cache (built
 * now when Go is there; without Go, `kind`, which the runtime's check then reports missing).
 */
export async function resolveKindBinary(values: Pick<ClusterOptionValues, 'kindBinary' | 'kindVersion'>, options: KindResolveOptions): Promise<string> {
  if (values.kindBinary) return values.kindBinary;
  if (findOnPath('kind')) return 'kind';
  const version = kindVersionOf(values);
  const built = goBuildPath(options.cacheDir, 'kind', version, 'kind');
  if (existsSync(built)) return built;
  if (!(await detectGo('go', options.signal))) return 'kind';
  options.logger.info(`kind is not installed: building sigs.k8s.io/kind@${version} from the Go module proxy`);
  const result = await buildFromGoModules('kind', version, { cacheDir: options.cacheDir, logger: options.logger, ...(options.signal ? { signal: options.signal } : {}) });
  return result.binaries.kind!;
}

/** kindest/node:<version> under docker.io (how kind and kwokctl name it, with or without the registry). */
export function upstreamNodeImageVersion(image: string): string | undefined {
  return /^(?:docker\.io\/)?kindest\/node:(v\d+\.\d+\.\d+)$/.exec(image)?.[1];
}

async function present(docker: string, image: string): Promise<boolean> {
  const execa = await loadExeca();
  return (await execa(docker, ['image', 'inspect', '--format', '{{.Id}}', image], { reject: false, timeout: 30_000 })).exitCode === 0;
}

/**
 * The node image to give kind: the configured one when it is here or can be pulled; else, for
 * upstream's kindest/node, the locally made image (built now if needed), said in one line.
 */
export async function resolveNodeImage(image: string, options: KindResolveOptions & { docker: string; kindVersion?: string; onStep?: (line: string) => void }): Promise<string> {
  if (await present(options.docker, image)) return image;
  const version = upstreamNodeImageVersion(image);
  const execa = await loadExeca();
  // No engine answering: nothing to build into; kind reports that itself.
  if ((await execa(options.docker, ['version', '--format', '{{.Server.Version}}'], { reject: false, timeout: 30_000 })).exitCode !== 0) return image;
  const pull = await execa(options.docker, ['pull', '--quiet', image], { reject: false, all: true, timeout: 300_000, ...(options.signal ? { cancelSignal: options.signal } : {}) });
  if (pull.exitCode === 0 || version === undefined) return image; // kind reports a failed pull of an image it was given.
  const reason = String(pull.all ?? '').trim().split('\n').pop() ?? `exit ${pull.exitCode}`;
  const local = localKindNodeImage(version);
  options.logger.info(`${image} cannot be pulled (${reason.replace(/^Error response from daemon: /, '')}); using ${local}, made locally (kwokts artifacts build kind-node-image)`);
  const result = await buildKindNodeImage({
    cacheDir: options.cacheDir,
    kubeVersion: version,
    kindVersion: options.kindVersion ?? KIND_VERSION,
    docker: options.docker,
    logger: options.logger,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onStep ? { onStep: options.onStep } : {}),
  });
  return result.image;
}
