/**
 * Where each control-plane binary can come from, as pure functions: no I/O, no clock, no env.
 *
 * For one binary the candidates are, in order:
 *  1. the explicit value (flag, config or `KWOK_*_BINARY`): an http(s) URL, a `file://` URL or a
 *     local path; URLs may end in `#member` ("download this archive, extract that member"). An
 *     explicit value is exclusive: when it is given, nothing else is tried.
 *  2. the binary prefix (a mirror, kwokctl's `KWOK_KUBE_BINARY_PREFIX` / `KWOK_ETCD_BINARY_PREFIX`):
 *     the same file name as upstream under that prefix (`<prefix>/<name>` for Kubernetes binaries);
 *     a prefix that is a local directory is looked up as `<dir>/<name>`.
 *  3. the cache: the upstream download's cache path, then the Go-built binary.
 *  4. the upstream URL kwokctl uses (dl.k8s.io for Kubernetes, GitHub releases for etcd/prometheus).
 *  5. building from Go modules (only when downloads failed and `go` is present, see gobuild.ts).
 */
import path from 'node:path';
import { findOnPath } from '../util/find-on-path.js';

export { findOnPath };
import { UsageError } from '../util/errors.js';
import { DEFAULT_JAEGER_VERSION, DEFAULT_KUBE_VERSION, DEFAULT_METRICS_SERVER_VERSION, DEFAULT_PROMETHEUS_VERSION, etcdVersionForKube, normalizeVersion } from '../config/versions.js';

export const KUBE_BINARIES = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'] as const;
export const ETCD_BINARIES = ['etcd', 'etcdctl', 'etcdutl'] as const;
/** Optional components with one binary each, built from their own Go module when not downloadable. */
export const ADDON_BINARIES = ['metrics-server', 'jaeger'] as const;
export const BINARY_NAMES = [...ETCD_BINARIES, ...KUBE_BINARIES, 'prometheus', ...ADDON_BINARIES] as const;

export type KubeBinaryName = (typeof KUBE_BINARIES)[number];
export type EtcdBinaryName = (typeof ETCD_BINARIES)[number];
export type BinaryName = (typeof BINARY_NAMES)[number];
export type AddonBinaryName = (typeof ADDON_BINARIES)[number];

/** Tools kwokts builds for users but no cluster component runs (e.g. cluster-autoscaler's kwok build). */
export const TOOL_BINARIES = ['cluster-autoscaler'] as const;
export type ToolBinaryName = (typeof TOOL_BINARIES)[number];
/** What a kind node image needs besides the control plane: the node's Kubernetes binaries, CoreDNS, and kind itself. */
export const KUBE_NODE_BINARIES = ['kubelet', 'kubeadm', 'kube-proxy'] as const;
export type KindNodeBinaryName = (typeof KUBE_NODE_BINARIES)[number] | 'coredns' | 'kind';
/** Anything a Go build can produce. */
export type BuildableName = BinaryName | ToolBinaryName | KindNodeBinaryName;

/** The Go module families we can build from source. */
export type GoBuildKind = 'kubernetes' | 'etcd' | 'cluster-autoscaler' | AddonBinaryName | 'kubernetes-node' | 'coredns' | 'kind';
/** `auto`: build only when every download failed; `always`: build instead of downloading; `never`: don't. */
export type OfflineBuildMode = 'auto' | 'never' | 'always';

/**
 * How a binary was (or would be) obtained.
 * - `explicit`: downloaded from the URL the user gave;
 * - `path`: a local file the user gave (path or `file://`), used in place (or extracted, with `#member`);
 * - `prefix`: from the user's mirror prefix;
 * - `cache`: already in the cache, no network used;
 * - `download`: downloaded from upstream;
 * - `gobuild`: compiled from Go modules.
 */
/** `system`: a copy installed on the machine (PATH), the last resort for what cannot be built here. */
export type ArtifactSource = 'explicit' | 'prefix' | 'cache' | 'download' | 'gobuild' | 'path' | 'system';

export interface Platform {
  /** Go's GOOS spelling: linux, darwin, windows. */
  os: string;
  /** Go's GOARCH spelling: amd64, arm64, ... */
  arch: string;
}

export interface ArtifactRequest {
  name: BinaryName;
  /** Kubernetes version (default v1.36.1); also picks etcd's version when `etcdVersion` is unset. */
  kubeVersion?: string;
  /** etcd release version, with or without `v` (default: kwokctl's table for the Kubernetes minor). */
  etcdVersion?: string;
  /** Prometheus version (default 3.12.0). */
  prometheusVersion?: string;
  /** metrics-server version (default DEFAULT_METRICS_SERVER_VERSION). */
  metricsServerVersion?: string;
  /** jaeger version (default DEFAULT_JAEGER_VERSION). */
  jaegerVersion?: string;
  /** Target platform (default: the host's). */
  platform?: Platform;
  /** Explicit value from a flag, the config file or `KWOK_*_BINARY`: URL (optionally `#member`) or local path. */
  binary?: string;
  /** Mirror prefix (URL or local directory), replacing the upstream prefix. */
  binaryPrefix?: string;
}

/** How to verify a download: a file with one hash (`.sha256`) or a `SHA256SUMS` list naming `fileName`. */
export interface ChecksumSpec {
  url: string;
  /** The name to look for in a checksum list; undefined when the file holds a single hash. */
  fileName?: string;
  /** Upstream publishes it, so it must be there; for mirrors a missing checksum file is tolerated. */
  required: boolean;
}

/** A local file used as it is. */
export interface FileCandidate {
  type: 'file';
  source: ArtifactSource;
  path: string;
  origin: string;
}

/** A download into the cache, optionally of an archive from which `member` is extracted. */
export interface DownloadCandidate {
  type: 'download';
  source: ArtifactSource;
  url: string;
  member?: string;
  /** Where the archive (or the plain binary) is stored in the cache. */
  downloadPath: string;
  /** Where the binary ends up (equal to `downloadPath` when there is no member). */
  path: string;
  checksum?: ChecksumSpec;
  /** The SHA-256 the user pinned (`#sha256=`): the download (or its cached copy) must match it. */
  sha256?: string;
  origin: string;
}

/** A member extracted from a local archive into the cache. */
export interface ExtractCandidate {
  type: 'extract';
  source: ArtifactSource;
  archive: string;
  member: string;
  path: string;
  origin: string;
}

/** Building the binary's whole family from Go modules into the cache. */
export interface GoBuildCandidate {
  type: 'gobuild';
  source: 'gobuild';
  kind: GoBuildKind;
  version: string;
  path: string;
  origin: string;
}

export type ArtifactCandidate = FileCandidate | DownloadCandidate | ExtractCandidate | GoBuildCandidate;

export interface CandidateOptions {
  cacheDir: string;
  offlineBuild?: OfflineBuildMode;
  /** Host platform, used when the request has none. */
  platform?: Platform;
  /** Where to look for installed programs (default $PATH). */
  searchPath?: string;
}

/** The request with every default filled in. */
export interface NormalizedRequest {
  name: BinaryName;
  kubeVersion: string;
  etcdVersion: string;
  prometheusVersion: string;
  metricsServerVersion: string;
  jaegerVersion: string;
  platform: Platform;
  binary: string | undefined;
  binaryPrefix: string | undefined;
}

const GO_OS: Record<string, string> = { win32: 'windows' };
const GO_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', ppc64: 'ppc64le' };

/** Node's `process.platform` / `process.arch` in Go's spelling. */
export function platformFromNode(platform: string, arch: string): Platform {
  return { os: GO_OS[platform] ?? platform, arch: GO_ARCH[arch] ?? arch };
}

export const HOST_PLATFORM: Platform = platformFromNode(process.platform, process.arch);

/** kwokctl's cache directory: `$KWOK_WORKDIR/cache`, else `~/.kwok/cache`. */
export function defaultCacheDir(env: Readonly<Record<string, string | undefined>>, homeDir: string): string {
  const workdir = env['KWOK_WORKDIR'];
  return workdir ? path.join(workdir, 'cache') : path.join(homeDir, '.kwok', 'cache');
}

export function isKubeBinary(name: string): name is KubeBinaryName {
  return (KUBE_BINARIES as readonly string[]).includes(name);
}

export function isEtcdBinary(name: string): name is EtcdBinaryName {
  return (ETCD_BINARIES as readonly string[]).includes(name);
}

export function isAddonBinary(name: string): name is AddonBinaryName {
  return (ADDON_BINARIES as readonly string[]).includes(name);
}

export function isBinaryName(name: string): name is BinaryName {
  return (BINARY_NAMES as readonly string[]).includes(name);
}

/** Which Go module family builds this binary, if any. */
export function goBuildKindOf(name: BinaryName): GoBuildKind | undefined {
  if (isKubeBinary(name)) return 'kubernetes';
  if (isEtcdBinary(name)) return 'etcd';
  if (isAddonBinary(name)) return name;
  return undefined;
}

/** The binaries one Go build of a family produces. */
export function binariesOfKind(kind: GoBuildKind): readonly BuildableName[] {
  if (kind === 'cluster-autoscaler') return TOOL_BINARIES;
  if (kind === 'kubernetes-node') return KUBE_NODE_BINARIES;
  if (kind === 'metrics-server' || kind === 'jaeger' || kind === 'coredns' || kind === 'kind') return [kind];
  return kind === 'kubernetes' ? KUBE_BINARIES : ETCD_BINARIES;
}

export function normalizeRequest(request: ArtifactRequest, hostPlatform: Platform = HOST_PLATFORM): NormalizedRequest {
  const kubeVersion = normalizeVersion(request.kubeVersion || DEFAULT_KUBE_VERSION);
  const etcdVersion = request.etcdVersion
    ? normalizeVersion(request.etcdVersion.replace(/-0$/, ''))
    : etcdVersionForKube(kubeVersion);
  const prometheusVersion = normalizeVersion(request.prometheusVersion || DEFAULT_PROMETHEUS_VERSION);
  return {
    name: request.name,
    kubeVersion,
    etcdVersion,
    prometheusVersion,
    metricsServerVersion: normalizeVersion(request.metricsServerVersion || DEFAULT_METRICS_SERVER_VERSION),
    jaegerVersion: normalizeVersion(request.jaegerVersion || DEFAULT_JAEGER_VERSION),
    platform: request.platform ?? hostPlatform,
    binary: request.binary?.trim() || undefined,
    binaryPrefix: request.binaryPrefix?.trim().replace(/\/+$/, '') || undefined,
  };
}

/** The version that matters for this binary (Kubernetes, etcd, Prometheus, metrics-server or jaeger), with `v`. */
export function versionOf(request: NormalizedRequest): string {
  if (isKubeBinary(request.name)) return request.kubeVersion;
  if (isEtcdBinary(request.name)) return request.etcdVersion;
  if (request.name === 'metrics-server') return request.metricsServerVersion;
  if (request.name === 'jaeger') return request.jaegerVersion;
  return request.prometheusVersion;
}

/**
 * Splits `url#member`; the member is undefined when there is no (or an empty) fragment. The
 * fragment may also pin the download's SHA-256, alone or after the member, joined by `&` like
 * URL parameters: `…/kube-apiserver#sha256=<hex>`, `…/etcd.tar.gz#etcd&sha256=<hex>`.
 */
export function splitMember(value: string): { location: string; member: string | undefined; sha256?: string } {
  const hash = value.indexOf('#');
  if (hash < 0) return { location: value, member: undefined };
  const location = value.slice(0, hash);
  let member: string | undefined;
  let sha256: string | undefined;
  for (const part of value.slice(hash + 1).split('&')) {
    if (part === '') continue;
    const pinned = /^sha256[=:](.*)$/i.exec(part);
    if (pinned) {
      if (!/^[0-9a-f]{64}$/i.test(pinned[1]!)) {
        throw new UsageError(`${JSON.stringify(part)} in ${value} is not a SHA-256`, { hint: 'write #sha256= and the 64 hex digits `sha256sum FILE` prints' });
      }
      sha256 = pinned[1]!.toLowerCase();
    } else if (member === undefined) member = part;
    else throw new UsageError(`${value} names two archive members (${member}, ${part})`, { hint: 'write URL#member or URL#member&sha256=<hex>' });
  }
  return { location, member, ...(sha256 ? { sha256 } : {}) };
}

export function isHttpUrl(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

export function isFileUrl(value: string): boolean {
  return /^file:\/\//i.test(value);
}

const ARCHIVE_SUFFIXES = ['.tar.gz', '.tgz', '.tar.xz', '.tar', '.zip'] as const;

export function isArchiveName(value: string): boolean {
  const lower = value.toLowerCase();
  return ARCHIVE_SUFFIXES.some((suffix) => lower.endsWith(suffix));
}

/** kwokctl's cache layout for a download: `<cacheDir>/<scheme>/<host>/<url-path>` (query ignored). */
export function cachePathForUrl(cacheDir: string, url: string): string {
  const parsed = new URL(url);
  const scheme = parsed.protocol.replace(/:$/, '');
  const segments = parsed.pathname.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  if (scheme === 'file') return path.join(cacheDir, 'file', ...segments);
  return path.join(cacheDir, scheme, parsed.host, ...segments);
}

/**
 * Where a member extracted from a cached archive lives: a directory next to the archive, named after
 * it without its extension, holding the member under its own name
 * (`…/v3.6.10/etcd-v3.6.10-linux-amd64.tar.gz` → `…/v3.6.10/etcd-v3.6.10-linux-amd64/etcd`).
 */
export function memberCachePath(archivePath: string, member: string): string {
  const base = path.basename(archivePath);
  const lower = base.toLowerCase();
  const suffix = ARCHIVE_SUFFIXES.find((s) => lower.endsWith(s));
  const dirName = suffix ? base.slice(0, base.length - suffix.length) : `${base}.d`;
  return path.join(path.dirname(archivePath), dirName, path.basename(member));
}

/** `<cacheDir>/gobuild/<kind>/<version>/<name>` */
export function goBuildPath(cacheDir: string, kind: GoBuildKind, version: string, name: string): string {
  return path.join(goBuildDir(cacheDir, kind, version), name);
}

export function goBuildDir(cacheDir: string, kind: GoBuildKind, version: string): string {
  return path.join(cacheDir, 'gobuild', kind, normalizeVersion(version));
}

function exeSuffix(platform: Platform): string {
  return platform.os === 'windows' ? '.exe' : '';
}

/** The file published under a prefix for this binary, and the member to extract when it is an archive. */
interface PublishedFile {
  file: string;
  member?: string;
  /** Checksum for `<prefix>/<file>`: a sibling `.sha256`, or a list file under the prefix. */
  checksum?: { kind: 'sibling' } | { kind: 'list'; listFile: string };
}

/** kwokctl's default prefix for the binary (the part a `*_BINARY_PREFIX` replaces). */
export function upstreamPrefix(request: NormalizedRequest): string {
  const { name, platform } = request;
  if (isKubeBinary(name)) {
    if (platform.os === 'linux' || name === 'kubectl') {
      return `https://dl.k8s.io/release/${request.kubeVersion}/bin/${platform.os}/${platform.arch}`;
    }
    return `https://github.com/kwok-ci/k8s/releases/download/${request.kubeVersion}-kwok.0-${platform.os}-${platform.arch}`;
  }
  if (isEtcdBinary(name)) return `https://github.com/etcd-io/etcd/releases/download/${request.etcdVersion}`;
  if (name === 'metrics-server') return `https://github.com/kubernetes-sigs/metrics-server/releases/download/${request.metricsServerVersion}`;
  if (name === 'jaeger') return `https://github.com/jaegertracing/jaeger/releases/download/${request.jaegerVersion}`;
  return `https://github.com/prometheus/prometheus/releases/download/${request.prometheusVersion}`;
}

function publishedFile(request: NormalizedRequest, prefixIsUpstream: boolean): PublishedFile {
  const { name, platform } = request;
  const archiveExt = platform.os === 'linux' ? 'tar.gz' : 'zip';
  if (isKubeBinary(name)) {
    // dl.k8s.io publishes `<url>.sha256`; the kwok-ci builds for other OSes publish none.
    const onDlK8s = platform.os === 'linux' || name === 'kubectl';
    return { file: name + exeSuffix(platform), ...(onDlK8s || !prefixIsUpstream ? { checksum: { kind: 'sibling' } } : {}) };
  }
  if (isEtcdBinary(name)) {
    const v = request.etcdVersion;
    return {
      file: `etcd-${v}-${platform.os}-${platform.arch}.${archiveExt}`,
      member: name + exeSuffix(platform),
      checksum: { kind: 'list', listFile: 'SHA256SUMS' },
    };
  }
  if (name === 'metrics-server') {
    // kwokctl's URL: a plain binary per platform; no checksum file is published next to it.
    return { file: `metrics-server-${platform.os}-${platform.arch}${exeSuffix(platform)}` };
  }
  if (name === 'jaeger') {
    const jv = request.jaegerVersion.replace(/^v/, '');
    return { file: `jaeger-${jv}-${platform.os}-${platform.arch}.${archiveExt}`, member: `jaeger-all-in-one${exeSuffix(platform)}` };
  }
  const v = request.prometheusVersion.replace(/^v/, '');
  return {
    file: `prometheus-${v}.${platform.os}-${platform.arch}.${archiveExt}`,
    member: name + exeSuffix(platform),
    checksum: { kind: 'list', listFile: 'sha256sums.txt' },
  };
}

/** The URL (with `#member` when it is an archive) kwokctl downloads this binary from by default. */
export function upstreamUrl(request: NormalizedRequest): string {
  const published = publishedFile(request, true);
  const url = `${upstreamPrefix(request)}/${published.file}`;
  return published.member ? `${url}#${published.member}` : url;
}

function downloadCandidate(
  cacheDir: string,
  source: ArtifactSource,
  url: string,
  member: string | undefined,
  checksum: ChecksumSpec | undefined,
): DownloadCandidate {
  const downloadPath = cachePathForUrl(cacheDir, url);
  return {
    type: 'download',
    source,
    url,
    ...(member ? { member } : {}),
    downloadPath,
    path: member ? memberCachePath(downloadPath, member) : downloadPath,
    ...(checksum ? { checksum } : {}),
    origin: member ? `${url}#${member}` : url,
  };
}

function prefixDownload(cacheDir: string, request: NormalizedRequest, prefix: string, source: ArtifactSource, upstream: boolean): DownloadCandidate {
  const published = publishedFile(request, upstream);
  const url = `${prefix}/${published.file}`;
  let checksum: ChecksumSpec | undefined;
  if (published.checksum?.kind === 'sibling') checksum = { url: `${url}.sha256`, required: upstream };
  else if (published.checksum?.kind === 'list') checksum = { url: `${prefix}/${published.checksum.listFile}`, fileName: published.file, required: upstream };
  return downloadCandidate(cacheDir, source, url, published.member, checksum);
}

function localPathOf(value: string): string {
  return isFileUrl(value) ? decodeURIComponent(new URL(value).pathname) : value;
}

/** The candidate for an explicit value (URL, `file://` URL or local path). */
export function explicitCandidate(cacheDir: string, request: NormalizedRequest, value: string): ArtifactCandidate {
  const { location, member: fragment, sha256 } = splitMember(value);
  // kwokctl's `*_BINARY_TAR` values are archives without a fragment: the binary is the member.
  const member = fragment ?? (isArchiveName(location) ? request.name + exeSuffix(request.platform) : undefined);
  if (isHttpUrl(location)) {
    // The user's URL: no checksum location is known for it, only the SHA-256 they pinned (if any).
    const candidate = downloadCandidate(cacheDir, 'explicit', location, member, undefined);
    return sha256 ? { ...candidate, sha256 } : candidate;
  }
  if (sha256) {
    throw new UsageError(`#sha256= is checked on downloads only, and ${location} is a local file`, { hint: 'drop #sha256= from the path (a local file is used as it is), or give an http(s) URL' });
  }
  const local = path.resolve(localPathOf(location));
  if (member) {
    const archiveCache = cachePathForUrl(cacheDir, `file://${local}`);
    return { type: 'extract', source: 'path', archive: local, member, path: memberCachePath(archiveCache, member), origin: `${local}#${member}` };
  }
  return { type: 'file', source: 'path', path: local, origin: local };
}

/**
 * The ordered candidates for one binary (see the file comment). Pure: whether a cached file exists is
 * decided later, by whoever tries the candidates.
 */
export function buildArtifactCandidates(request: ArtifactRequest, options: CandidateOptions): ArtifactCandidate[] {
  const req = normalizeRequest(request, options.platform);
  const { cacheDir } = options;
  const offline = options.offlineBuild ?? 'auto';
  const upstream = prefixDownload(cacheDir, req, upstreamPrefix(req), 'download', true);
  const prefixed = req.binaryPrefix && req.binaryPrefix !== upstreamPrefix(req) ? req.binaryPrefix : undefined;

  // An explicit value equal to the default URL is no real choice: keep the normal order.
  if (req.binary && req.binary !== upstream.origin && req.binary !== upstream.url) {
    return [explicitCandidate(cacheDir, req, req.binary)];
  }

  const candidates: ArtifactCandidate[] = [];
  if (prefixed) {
    if (isHttpUrl(prefixed)) {
      if (offline !== 'always') candidates.push(prefixDownload(cacheDir, req, prefixed, 'prefix', false));
    } else {
      const dir = path.resolve(localPathOf(prefixed));
      const file = path.join(dir, req.name + exeSuffix(req.platform));
      candidates.push({ type: 'file', source: 'prefix', path: file, origin: file });
    }
  }
  // Go builds are for the host only (their `--version` is run to verify them).
  const host = options.platform ?? HOST_PLATFORM;
  const native = req.platform.os === host.os && req.platform.arch === host.arch;
  const kind = native ? goBuildKindOf(req.name) : undefined;
  const version = kind === undefined ? '' : buildVersion(kind, req);
  const built = kind ? goBuildPath(cacheDir, kind, version, req.name + exeSuffix(req.platform)) : undefined;
  candidates.push({ type: 'file', source: 'cache', path: upstream.path, origin: upstream.origin });
  if (built && kind) candidates.push({ type: 'file', source: 'cache', path: built, origin: goBuildOrigin(kind, version, req.name) });
  if (offline !== 'always') candidates.push(upstream);
  if (built && kind && offline !== 'never') {
    candidates.push({ type: 'gobuild', source: 'gobuild', kind, version, path: built, origin: goBuildOrigin(kind, version, req.name) });
  }
  // Prometheus cannot reasonably be built from its module (web assets), so offline machines
  // fall back to a distribution's package (Debian's /usr/bin/prometheus).
  const installed = native && req.name === 'prometheus' ? findOnPath('prometheus', options.searchPath) : undefined;
  if (installed) candidates.push({ type: 'file', source: 'system', path: installed, origin: `${installed} (installed on this machine)` });
  return candidates;
}

/** The version a Go build of `kind` makes for this request. */
function buildVersion(kind: GoBuildKind, req: NormalizedRequest): string {
  switch (kind) {
    case 'kubernetes':
      return req.kubeVersion;
    case 'metrics-server':
      return req.metricsServerVersion;
    case 'jaeger':
      return req.jaegerVersion;
    default:
      return req.etcdVersion;
  }
}


/** A human-readable origin for a Go-built binary: the package and version it was built from. */
export function goBuildOrigin(kind: GoBuildKind, version: string, name: string): string {
  if (kind === 'kubernetes' || kind === 'kubernetes-node') return `go build k8s.io/kubernetes/cmd/${name}@${normalizeVersion(version)}`;
  if (kind === 'coredns') return `go build github.com/coredns/coredns@${normalizeVersion(version)}`;
  if (kind === 'kind') return `go build sigs.k8s.io/kind@${normalizeVersion(version)}`;
  if (kind === 'cluster-autoscaler') return `go build sigs.k8s.io/cluster-autoscaler/kwok@${normalizeVersion(version)}`;
  if (kind === 'metrics-server') return `go build sigs.k8s.io/metrics-server/cmd/metrics-server@${normalizeVersion(version)}`;
  if (kind === 'jaeger') return `go build github.com/jaegertracing/jaeger/cmd/all-in-one@${normalizeVersion(version)}`;
  const module = name === 'etcd' ? 'server' : name;
  return `go build go.etcd.io/etcd/${module}/v3@${normalizeVersion(version)}`;
}

/** The kwokctl flag and environment variables that override a binary, for hints. */
export interface BinaryOverrideNames {
  flag?: string;
  env: string;
  prefixEnv?: string;
}

export const BINARY_OVERRIDES: Readonly<Record<BinaryName, BinaryOverrideNames>> = {
  'kube-apiserver': { flag: '--kube-apiserver-binary', env: 'KWOK_KUBE_APISERVER_BINARY', prefixEnv: 'KWOK_KUBE_BINARY_PREFIX' },
  'kube-controller-manager': { flag: '--kube-controller-manager-binary', env: 'KWOK_KUBE_CONTROLLER_MANAGER_BINARY', prefixEnv: 'KWOK_KUBE_BINARY_PREFIX' },
  'kube-scheduler': { flag: '--kube-scheduler-binary', env: 'KWOK_KUBE_SCHEDULER_BINARY', prefixEnv: 'KWOK_KUBE_BINARY_PREFIX' },
  kubectl: { env: 'KWOK_KUBECTL_BINARY', prefixEnv: 'KWOK_KUBE_BINARY_PREFIX' },
  etcd: { flag: '--etcd-binary', env: 'KWOK_ETCD_BINARY', prefixEnv: 'KWOK_ETCD_BINARY_PREFIX' },
  etcdctl: { env: 'KWOK_ETCD_BINARY_TAR', prefixEnv: 'KWOK_ETCD_BINARY_PREFIX' },
  etcdutl: { env: 'KWOK_ETCD_BINARY_TAR', prefixEnv: 'KWOK_ETCD_BINARY_PREFIX' },
  prometheus: { flag: '--prometheus-binary', env: 'KWOK_PROMETHEUS_BINARY', prefixEnv: 'KWOK_PROMETHEUS_BINARY_PREFIX' },
  'metrics-server': { flag: '--metrics-server-binary', env: 'KWOK_METRICS_SERVER_BINARY', prefixEnv: 'KWOK_METRICS_SERVER_BINARY_PREFIX' },
  jaeger: { flag: '--jaeger-binary', env: 'KWOK_JAEGER_BINARY', prefixEnv: 'KWOK_JAEGER_BINARY_PREFIX' },
};
