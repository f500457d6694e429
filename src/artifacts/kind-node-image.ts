/**
 * A kind node image made on this machine, for where kindest/node cannot be pulled.
 *
 * kind's own node image is Debian + systemd + containerd + the Kubernetes node binaries + the
 * control-plane images pre-imported into containerd (kind's images/base/Dockerfile and
 * pkg/build/nodeimage). The same layout is assembled here from parts a machine without a
 * container registry can get:
 *  - the root filesystem: `debootstrap` of Debian bookworm with systemd, containerd, runc and the
 *    CNI plugins from Debian's packages (bookworm's systemd still boots on cgroup v1 hosts);
 *  - kind's node files (entrypoint, systemd units, containerd config) from the kind Go module;
 *  - kubelet, kubeadm, kube-proxy and the control-plane images from the Go-built Kubernetes
 *    release, etcd at the version kubeadm expects, CoreDNS from its Go module, and the pause
 *    container compiled from Kubernetes' own build/pause/linux/pause.c;
 *  - a static ptp CNI configuration instead of kindnetd (whose module is not on the proxy); it is
 *    enough for a one-node cluster, which is what kwokts makes.
 * The images are written as docker archives and imported into the node's containerd inside a
 * build container, then the container is committed, as `kind build node-image` does.
 *
 * The pure half (names, recipe, manifests) is exported for tests; `buildKindNodeImage` does it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { chmod, copyFile, cp, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { normalizeVersion } from '../config/versions.js';
import { loadExeca } from '../exec/load-execa.js';
import { ExternalCommandError, PreflightError } from '../util/errors.js';
import { silentLogger, type Logger } from '../util/log.js';
import { withFileLock } from './download.js';
import { buildFromGoModules, detectGo, runGo } from './gobuild.js';
import type { ProgressCallback } from './progress.js';
import { findOnPath, goBuildPath } from './sources.js';

/** Where the locally made node images are tagged (never under kindest/, which is upstream's). */
export const LOCAL_KIND_NODE_REPOSITORY = 'kwokts.local/kind-node';
/** Bumped when the recipe changes, so cached images are rebuilt. */
export const KIND_NODE_RECIPE = '2';
export const NODE_SUITE = 'bookworm';
/** kind's base image packages that exist in Debian, plus containerd, runc and the CNI plugins kind builds itself. */
export const NODE_PACKAGES = [
  'systemd', 'systemd-sysv', 'dbus', 'conntrack', 'iptables', 'nftables', 'iproute2', 'ethtool', 'util-linux', 'mount', 'kmod',
  'libseccomp2', 'pigz', 'ca-certificates', 'procps', 'socat', 'bash', 'curl', 'jq', 'containerd', 'runc', 'containernetworking-plugins',
] as const;
const DEBIAN_MIRROR = process.env['KWOKTS_DEBIAN_MIRROR'] || 'http://deb.debian.org/debian';
const INPUTS_LABEL = 'io.kwokts.kind-node.inputs';

export function localKindNodeImage(kubeVersion: string): string {
  return `${LOCAL_KIND_NODE_REPOSITORY}:${normalizeVersion(kubeVersion)}`;
}

/** The images `kubeadm config images list` names, split into what we build them from. */
export interface KubeadmImages {
  control: Array<{ name: 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy'; ref: string }>;
  etcd: { ref: string; version: string };
  coredns: { ref: string; version: string };
  pause: string[];
}

/** Parses `kubeadm config images list` output (one reference a line). */
export function parseKubeadmImages(text: string): KubeadmImages {
  const refs = text.split('\n').map((l) => l.trim()).filter(Boolean);
  const tagOf = (ref: string): string => ref.slice(ref.lastIndexOf(':') + 1);
  const find = (part: string): string => {
    const ref = refs.find((r) => r.slice(0, r.lastIndexOf(':')).endsWith(part));
    if (!ref) throw new ExternalCommandError(`kubeadm config images list names no ${part} image`, ['kubeadm', 'config', 'images', 'list'], text);
    return ref;
  };
  const control = (['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy'] as const).map((name) => ({ name, ref: find(`/${name}`) }));
  const etcd = find('/etcd');
  const coredns = find('/coredns');
  return {
    control,
    // kubeadm's etcd tag is <release>-<image revision>, e.g. 3.6.8-0.
    etcd: { ref: etcd, version: normalizeVersion(tagOf(etcd).replace(/-\d+$/, '')) },
    coredns: { ref: coredns, version: normalizeVersion(tagOf(coredns)) },
    pause: [find('/pause')],
  };
}

/** The sandbox image kind's containerd config names (it may differ from kubeadm's pause). */
export function sandboxImageOf(containerdConfig: string): string | undefined {
  return /^\s*sandbox_image\s*=\s*"([^"]+)"/m.exec(containerdConfig)?.[1];
}

/** The CNI configuration the node uses in place of kindnetd: ptp links and host-local addresses from kind's default pod subnet. */
export const STATIC_CNI_CONFLIST = JSON.stringify(
  {
    cniVersion: '0.4.0',
    name: 'kwokts',
    plugins: [
      { type: 'ptp', ipMasq: true, mtu: 1500, ipam: { type: 'host-local', dataDir: '/run/cni-ipam-state', routes: [{ dst: '0.0.0.0/0' }], ranges: [[{ subnet: '10.244.0.0/16' }]] } },
      { type: 'portmap', capabilities: { portMappings: true } },
    ],
  },
  null,
  2,
);

/** kind applies /kind/manifests/default-cni.yaml; ours only records that the node's CNI is static. */
export const DEFAULT_CNI_MANIFEST = `# The node image kwokts builds has a static ptp CNI configuration (/etc/cni/net.d), not kindnetd.
apiVersion: v1
kind: ConfigMap
metadata:
  name: kwokts-node-cni
  namespace: kube-system
data:
  cni: /etc/cni/net.d/10-kwokts.conflist (ptp, host-local 10.244.0.0/16)
`;

/**
 * Run before containerd in the node: where even a privileged container lacks CAP_SYS_RESOURCE
 * (some sandboxes withhold it), runc cannot lower a pod's oom_score_adj and every pod fails to
 * start; containerd is then told to keep scores at or above its own (as kind does for rootless).
 */
export const CONTAINERD_CAPS_SCRIPT = `#!/bin/sh
bnd=$(awk '/^CapBnd/ {print $2}' /proc/self/status)
if [ $(( (0x$bnd >> 24) & 1 )) -eq 0 ]; then
  sed -i 's/restrict_oom_score_adj = false/restrict_oom_score_adj = true/' /etc/containerd/config.toml
fi
`;

/** kind's base image's containerd runtime spec: `ctr oci spec` plus kind's product-files hook and no rlimits. */
export function kindBaseRuntimeSpec(ociSpec: string): string {
  const spec = JSON.parse(ociSpec) as { hooks?: Record<string, unknown[]>; process?: Record<string, unknown> };
  spec.hooks ??= {};
  spec.hooks['createContainer'] = [...(spec.hooks['createContainer'] ?? []), { path: '/kind/bin/mount-product-files.sh' }];
  if (spec.process) delete spec.process['rlimits'];
  return JSON.stringify(spec, null, 2) + '\n';
}

export interface DockerArchiveSpec {
  tags: string[];
  entrypoint?: string[];
  env?: string[];
}

/** The config and manifest of a one-layer docker archive (what `docker save` writes), for a layer digest. */
export function dockerArchiveMeta(spec: DockerArchiveSpec, layerDigest: string): { config: string; configName: string; manifest: string; layerPath: string } {
  const config = JSON.stringify({
    architecture: 'amd64',
    os: 'linux',
    created: '2026-01-01T00:00:00Z',
    config: { Env: spec.env ?? ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'], ...(spec.entrypoint ? { Entrypoint: spec.entrypoint } : {}) },
    rootfs: { type: 'layers', diff_ids: [`sha256:${layerDigest}`] },
    history: [{ created: '2026-01-01T00:00:00Z', created_by: 'kwokts artifacts build kind-node-image' }],
  });
  const configName = `${createHash('sha256').update(config).digest('hex')}.json`;
  const layerPath = `${layerDigest}/layer.tar`;
  const manifest = JSON.stringify([{ Config: configName, RepoTags: spec.tags, Layers: [layerPath] }]);
  return { config, configName, manifest, layerPath };
}

// ---------------------------------------------------------------------------------------------
// Doing it

export interface KindNodeImageOptions {
  cacheDir: string;
  kubeVersion: string;
  kindVersion: string;
  /** The docker CLI (DOCKER_HOST etc. come from the environment). */
  docker?: string;
  logger?: Logger;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  /** One line per step, for progress output. */
  onStep?: (line: string) => void;
  force?: boolean;
}

export interface KindNodeImageResult {
  image: string;
  built: boolean;
  durationMs: number;
}

type Run = (command: string, args: string[], options?: { input?: string; inputFile?: string; cwd?: string; timeoutMs?: number }) => Promise<string>;

async function runner(signal?: AbortSignal): Promise<Run> {
  const execa = await loadExeca();
  return async (command, args, options = {}) => {
    const result = await execa(command, args, {
      reject: false,
      all: true,
      stdin: options.input !== undefined || options.inputFile !== undefined ? undefined : 'ignore',
      ...(options.input !== undefined ? { input: options.input } : {}),
      ...(options.inputFile !== undefined ? { inputFile: options.inputFile } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}),
      ...(signal ? { cancelSignal: signal } : {}),
    });
    if (result.exitCode !== 0 || result.failed) {
      throw new ExternalCommandError(`${path.basename(command)} ${args.slice(0, 3).join(' ')} failed (exit ${result.exitCode ?? 'none'})`, [command, ...args], String(result.all ?? '').split('\n').slice(-20).join('\n'));
    }
    return String(result.stdout ?? '');
  };
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Writes a one-layer docker archive of `layerDir` to `out`. */
async function writeDockerArchive(run: Run, layerDir: string, out: string, spec: DockerArchiveSpec): Promise<void> {
  const work = `${out}.d`;
  await rm(work, { recursive: true, force: true });
  await mkdir(work, { recursive: true });
  const layer = path.join(work, 'layer.tar');
  await run('tar', ['--numeric-owner', '--owner=0', '--group=0', '--sort=name', '--mtime=2026-01-01', '-C', layerDir, '-cf', layer, '.']);
  const digest = await sha256File(layer);
  const meta = dockerArchiveMeta(spec, digest);
  await mkdir(path.join(work, digest));
  await rename(layer, path.join(work, meta.layerPath));
  await writeFile(path.join(work, meta.configName), meta.config);
  await writeFile(path.join(work, 'manifest.json'), meta.manifest);
  await run('tar', ['-C', work, '-cf', out, 'manifest.json', meta.configName, meta.layerPath]);
  await rm(work, { recursive: true, force: true });
}

/** Puts `from` at `to` inside `root` (dereferencing `from`), creating parents. */
async function place(root: string, to: string, from: string, mode = 0o755): Promise<void> {
  const target = path.join(root, to);
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(from, target);
  await chmod(target, mode);
}

/** The shared libraries `binary` links (ldd, run in `root`), as paths inside root. */
async function librariesOf(run: Run, root: string, binaries: string[]): Promise<string[]> {
  const out = await run('chroot', [root, 'ldd', ...binaries]);
  const libs = new Set<string>();
  for (const line of out.split('\n')) {
    const m = /=>\s+(\/\S+)/.exec(line) ?? /^\s*(\/\S+)\s+\(/.exec(line);
    if (m?.[1]) libs.add(m[1]);
  }
  return [...libs];
}

/** The Debian root filesystem, made once per package list (debootstrap needs root). */
async function ensureRootfs(run: Run, cacheDir: string, step: (l: string) => void): Promise<string> {
  const key = createHash('sha256').update([NODE_SUITE, DEBIAN_MIRROR, ...NODE_PACKAGES].join('\n')).digest('hex').slice(0, 12);
  const dir = path.join(cacheDir, 'kind-node', `rootfs-${NODE_SUITE}-${key}`);
  if (existsSync(path.join(dir, '.complete'))) return dir;
  if (process.getuid?.() !== 0) throw new PreflightError('building the kind node image needs root (debootstrap makes a Debian root filesystem)', { hint: 'run `sudo kwokts artifacts build kind-node-image` once; later builds reuse it' });
  if (!findOnPath('debootstrap')) throw new PreflightError('debootstrap is not installed (it makes the node image\'s Debian root filesystem)', { hint: 'apt-get install debootstrap' });
  const tmp = `${dir}.${process.pid}.tmp`;
  await rm(tmp, { recursive: true, force: true });
  step(`debootstrap ${NODE_SUITE} (${NODE_PACKAGES.length} packages) from ${DEBIAN_MIRROR}`);
  await run('debootstrap', ['--variant=minbase', `--include=${NODE_PACKAGES.join(',')}`, NODE_SUITE, tmp, DEBIAN_MIRROR], { timeoutMs: 3_600_000 });
  for (const sub of ['var/cache/apt/archives', 'var/lib/apt/lists']) {
    for (const entry of await readdir(path.join(tmp, sub)).catch(() => [] as string[])) if (entry.endsWith('.deb') || entry.includes('_')) await rm(path.join(tmp, sub, entry), { force: true });
  }
  await writeFile(path.join(tmp, '.complete'), '');
  await rm(dir, { recursive: true, force: true });
  await rename(tmp, dir);
  return dir;
}

async function moduleDir(go: string, cacheDir: string, mod: string, version: string, signal?: AbortSignal): Promise<string> {
  const out = await runGo(['mod', 'download', '-json', `${mod}@${version}`], { go, cwd: cacheDir, env: { GOWORK: 'off', GOFLAGS: '-mod=mod' }, cacheDir, ...(signal ? { signal } : {}) });
  const dir = (JSON.parse(out) as { Dir?: string }).Dir;
  if (!dir) throw new ExternalCommandError(`go mod download ${mod}@${version} gave no directory`, [go, 'mod', 'download', '-json', `${mod}@${version}`], out);
  return dir;
}

/** Fingerprint of what goes into the image (cheap: sizes and mtimes of the binaries). */
async function fingerprint(parts: Record<string, string>, extra: string[]): Promise<string> {
  const hash = createHash('sha256').update([KIND_NODE_RECIPE, ...extra].join('\n'));
  for (const [name, file] of Object.entries(parts).sort()) {
    const s = await stat(file);
    hash.update(`${name}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

export async function kindNodeImageInputs(docker: string, image: string): Promise<string | undefined> {
  const execa = await loadExeca();
  const r = await execa(docker, ['image', 'inspect', '--format', `{{index .Config.Labels "${INPUTS_LABEL}"}}`, image], { reject: false, timeout: 30_000 });
  return r.exitCode === 0 ? String(r.stdout).trim() : undefined;
}

/**
 * Builds (or finds cached) `kwokts.local/kind-node:<kube version>` in the docker engine of the
 * environment. Idempotent and locked; every step reports a line through onStep.
 */
export async function buildKindNodeImage(options: KindNodeImageOptions): Promise<KindNodeImageResult> {
  const started = Date.now();
  const logger = options.logger ?? silentLogger;
  const step = (line: string): void => {
    logger.debug(line);
    options.onStep?.(line);
  };
  const docker = options.docker ?? 'docker';
  const kubeVersion = normalizeVersion(options.kubeVersion);
  const kindVersion = normalizeVersion(options.kindVersion);
  const image = localKindNodeImage(kubeVersion);
  const go = await detectGo('go', options.signal);
  if (!go) throw new PreflightError('cannot build the kind node image: the go tool was not found on PATH', { hint: 'install Go (https://go.dev/dl/) and try again' });
  const run = await runner(options.signal);
  const common = { cacheDir: options.cacheDir, logger, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) };

  // 1. Binaries (each a cached Go build).
  step(`Go builds: kubernetes ${kubeVersion} (control plane and node), kind ${kindVersion}`);
  const control = await buildFromGoModules('kubernetes', kubeVersion, common);
  const node = await buildFromGoModules('kubernetes-node', kubeVersion, common);
  const kubeadm = node.binaries.kubeadm!;
  const wanted = parseKubeadmImages(await run(kubeadm, ['config', 'images', 'list', '--kubernetes-version', kubeVersion]));
  step(`Go builds: etcd ${wanted.etcd.version}, coredns ${wanted.coredns.version}`);
  const etcd = await buildFromGoModules('etcd', wanted.etcd.version, common);
  const coredns = await buildFromGoModules('coredns', wanted.coredns.version, common);
  const kindSrc = await moduleDir(go.command, options.cacheDir, 'sigs.k8s.io/kind', kindVersion, options.signal);
  const kubeSrc = await moduleDir(go.command, options.cacheDir, 'k8s.io/kubernetes', kubeVersion, options.signal);
  const parts: Record<string, string> = {
    kubelet: node.binaries.kubelet!,
    kubeadm,
    'kube-proxy': node.binaries['kube-proxy']!,
    kubectl: control.binaries.kubectl!,
    'kube-apiserver': control.binaries['kube-apiserver']!,
    'kube-controller-manager': control.binaries['kube-controller-manager']!,
    'kube-scheduler': control.binaries['kube-scheduler']!,
    etcd: etcd.binaries.etcd!,
    etcdctl: etcd.binaries.etcdctl!,
    coredns: coredns.binaries.coredns!,
  };
  const inputs = await fingerprint(parts, [kubeVersion, kindVersion, NODE_SUITE, ...NODE_PACKAGES]);
  if (!options.force && (await kindNodeImageInputs(docker, image)) === inputs) return { image, built: false, durationMs: Date.now() - started };

  const lockPath = path.join(options.cacheDir, 'kind-node', `image-${kubeVersion}`);
  return withFileLock(lockPath, { logger, ...(options.signal ? { signal: options.signal } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}), tuning: { lockWaitMs: 4 * 3_600_000 } }, async () => {
    if (!options.force && (await kindNodeImageInputs(docker, image)) === inputs) return { image, built: false, durationMs: Date.now() - started };
    const rootfs = await ensureRootfs(run, options.cacheDir, step);
    const staging = path.join(options.cacheDir, 'kind-node', `.staging-${process.pid}-${randomBytes(4).toString('hex')}`);
    const container = `kwokts-kind-node-build-${process.pid}-${randomBytes(3).toString('hex')}`;
    const base = `${LOCAL_KIND_NODE_REPOSITORY}-base:${inputs}`;
    try {
      // 2. The node's root filesystem: Debian + kind's node files + the node binaries.
      step('assembling the node root filesystem (Debian packages, kind node files, Kubernetes binaries)');
      const root = path.join(staging, 'node');
      await mkdir(staging, { recursive: true });
      await run('cp', ['-a', rootfs, root]);
      await rm(path.join(root, '.complete'), { force: true });
      await layoutNode(run, root, path.join(kindSrc, 'images', 'base', 'files'), parts, kubeVersion);

      // 3. The images kubeadm and containerd need, as docker archives.
      step('making the control-plane, etcd, coredns and pause images');
      const sandbox = sandboxImageOf(await readFile(path.join(root, 'etc', 'containerd', 'config.toml'), 'utf8'));
      const archives = await makeImages(run, root, staging, parts, wanted, sandbox, path.join(kubeSrc, 'build', 'pause', 'linux', 'pause.c'));

      // 4. Import the rootfs, load the images into its containerd in a build container, commit.
      step(`docker import of the node root filesystem as ${base}`);
      await run('bash', ['-c', `tar --numeric-owner -C "$1" -c . | "$2" import - "$3"`, 'import', root, docker, base], { timeoutMs: 1_800_000 });
      await rm(root, { recursive: true, force: true });
      await run(docker, ['run', '-d', '--name', container, '--entrypoint=sleep', '--security-opt', 'seccomp=unconfined', '--network', 'none', base, 'infinity']);
      await run(docker, ['exec', container, 'bash', '-c', 'nohup containerd >/tmp/containerd.log 2>&1 &']);
      await run(docker, ['exec', container, 'bash', '-c', 'for i in $(seq 1 100); do [ -S /run/containerd/containerd.sock ] && ctr version >/dev/null 2>&1 && exit 0; sleep 0.2; done; cat /tmp/containerd.log; exit 1']);
      for (const archive of archives) {
        step(`importing ${archive.tags.join(', ')} into the node's containerd`);
        await run(docker, ['exec', '-i', container, 'ctr', '--namespace=k8s.io', 'images', 'import', '--all-platforms', '--no-unpack', '--digests', '-'], { inputFile: archive.file, timeoutMs: 600_000 });
        // Pinned, as kind pins its images: the kubelet's image GC must not remove them.
        for (const tag of archive.tags) await run(docker, ['exec', container, 'ctr', '--namespace=k8s.io', 'images', 'label', tag, 'io.cri-containerd.pinned=pinned']);
      }
      await run(docker, ['exec', container, 'bash', '-c', 'pkill containerd; for i in $(seq 1 50); do pgrep -x containerd >/dev/null || break; sleep 0.2; done; rm -f /tmp/containerd.log']);
      step(`docker commit ${image}`);
      const committed = `${base}-committed`;
      await run(docker, ['commit', '--change', 'ENTRYPOINT [ "/usr/local/bin/entrypoint", "/sbin/init" ]', '--change', 'ENV container=docker', container, committed]);
      // commit cannot set a stop signal: systemd stops cleanly on SIGRTMIN+3 (SIGTERM makes it re-execute).
      await run(docker, ['build', '--tag', image, '-'], { input: `FROM ${committed}\nSTOPSIGNAL SIGRTMIN+3\nLABEL ${INPUTS_LABEL}=${inputs}\n` });
      await run(docker, ['rmi', committed]);
    } finally {
      const execa = await loadExeca();
      await execa(docker, ['rm', '-f', container], { reject: false });
      await execa(docker, ['rmi', base], { reject: false });
      await rm(staging, { recursive: true, force: true }).catch(() => undefined);
    }
    return { image, built: true, durationMs: Date.now() - started };
  });
}

/** kind's base image layout (images/base/Dockerfile) on a Debian root filesystem, plus the node binaries. */
async function layoutNode(run: Run, root: string, kindFiles: string, parts: Record<string, string>, kubeVersion: string): Promise<void> {
  const at = (p: string): string => path.join(root, p);
  await place(root, 'usr/local/bin/entrypoint', path.join(kindFiles, 'usr/local/bin/entrypoint'));
  await cp(path.join(kindFiles, 'kind'), at('kind'), { recursive: true });
  await cp(path.join(kindFiles, 'etc'), at('etc'), { recursive: true, force: true });
  // The module cache is read-only: give the copies kind's modes (directories and scripts 0755, files 0644).
  const list = async (type: string): Promise<string[]> => (await run('bash', ['-c', `cd "$1" && find etc -type ${type}`, 'list', kindFiles])).split('\n').filter(Boolean).map(at);
  await run('chmod', ['0644', ...(await list('f'))]);
  await run('chmod', ['0755', ...(await list('d'))]);
  await run('bash', ['-c', 'find "$1" -type d -exec chmod 0755 {} + && find "$1" -type f -exec chmod 0644 {} + && chmod 0755 "$1"/bin/*', 'modes', at('kind')]);
  // Debian installs containerd, ctr, the shim and runc under /usr; kind's units and scripts name /usr/local.
  for (const b of ['containerd', 'ctr', 'containerd-shim-runc-v2']) await symlink(`/usr/bin/${b}`, at(`usr/local/bin/${b}`));
  await symlink('/usr/sbin/runc', at('usr/local/sbin/runc'));
  await mkdir(at('opt/cni'), { recursive: true });
  await symlink('/usr/lib/cni', at('opt/cni/bin'));
  // The systemd trimming kind's base image does, so only kind's services start.
  await run('bash', [
    '-c',
    `set -e; cd "$1"
find lib/systemd/system/sysinit.target.wants/ -name systemd-tmpfiles-setup.service -delete
rm -f lib/systemd/system/multi-user.target.wants/* etc/systemd/system/*.wants/* lib/systemd/system/local-fs.target.wants/* lib/systemd/system/sockets.target.wants/*udev* lib/systemd/system/sockets.target.wants/*initctl* lib/systemd/system/basic.target.wants/*
echo ReadKMsg=no >> etc/systemd/journald.conf
ln -sf /usr/lib/systemd/systemd sbin/init
mkdir -p etc/kubernetes/manifests`,
    'layout',
    root,
  ]);
  await run('chroot', [root, 'systemctl', 'enable', 'kubelet.service', 'containerd.service', 'undo-mount-hacks.service']);
  await run('chroot', [root, 'systemctl', 'mask', 'systemd-binfmt.service']);
  await writeFile(at('etc/containerd/cri-base.json'), kindBaseRuntimeSpec(await run('chroot', [root, 'ctr', 'oci', 'spec'])));
  for (const b of ['kubeadm', 'kubelet', 'kubectl']) await place(root, `usr/bin/${b}`, parts[b]!);
  await writeFile(at('kind/version'), kubeVersion);
  await writeFile(at('usr/local/bin/kwokts-containerd-caps'), CONTAINERD_CAPS_SCRIPT, { mode: 0o755 });
  await mkdir(at('etc/systemd/system/containerd.service.d'), { recursive: true });
  await writeFile(at('etc/systemd/system/containerd.service.d/10-kwokts-caps.conf'), '[Service]\nExecStartPre=/usr/local/bin/kwokts-containerd-caps\n', { mode: 0o644 });
  await mkdir(at('etc/cni/net.d'), { recursive: true });
  await writeFile(at('etc/cni/net.d/10-kwokts.conflist'), STATIC_CNI_CONFLIST + '\n');
  await mkdir(at('kind/manifests'), { recursive: true });
  await writeFile(at('kind/manifests/default-cni.yaml'), DEFAULT_CNI_MANIFEST);
}

interface Archive {
  file: string;
  tags: string[];
}

async function makeImages(run: Run, nodeRoot: string, staging: string, parts: Record<string, string>, wanted: KubeadmImages, sandbox: string | undefined, pauseSource: string): Promise<Archive[]> {
  const archives: Archive[] = [];
  const make = async (name: string, tags: string[], fill: (dir: string) => Promise<void>, spec: Omit<DockerArchiveSpec, 'tags'> = {}): Promise<void> => {
    const dir = path.join(staging, 'images', name);
    await mkdir(path.join(dir, 'tmp'), { recursive: true });
    await chmod(path.join(dir, 'tmp'), 0o1777);
    await fill(dir);
    const file = path.join(staging, 'images', `${name}.tar`);
    await writeDockerArchive(run, dir, file, { tags, ...spec });
    await rm(dir, { recursive: true, force: true });
    archives.push({ file, tags });
  };
  for (const { name, ref } of wanted.control) {
    await make(name, [ref], async (dir) => {
      await place(dir, `usr/local/bin/${name}`, parts[name]!);
      if (name === 'kube-proxy') await addIptables(run, nodeRoot, dir);
    });
  }
  await make('etcd', [wanted.etcd.ref], async (dir) => {
    await place(dir, 'usr/local/bin/etcd', parts['etcd']!);
    await place(dir, 'usr/local/bin/etcdctl', parts['etcdctl']!);
  });
  await make('coredns', [wanted.coredns.ref], (dir) => place(dir, 'coredns', parts['coredns']!), { entrypoint: ['/coredns'] });
  // Kubernetes' own pause container source; kubeadm's tag and the one kind's containerd config names.
  const pauseTags = [...new Set([...wanted.pause, ...(sandbox ? [sandbox] : [])])];
  await make('pause', pauseTags, async (dir) => {
    await run('gcc', ['-Os', '-Wall', '-Werror', '-static', `-DVERSION=${pauseTags[0]!.slice(pauseTags[0]!.lastIndexOf(':') + 1)}`, '-o', path.join(dir, 'pause'), pauseSource]);
  }, { entrypoint: ['/pause'] });
  return archives;
}

/** kube-proxy programs iptables: the node's iptables (nft backend, Debian's default) with its libraries and extensions. */
async function addIptables(run: Run, nodeRoot: string, dir: string): Promise<void> {
  const binaries = ['/usr/sbin/xtables-nft-multi', '/usr/sbin/conntrack'];
  const extensions = (await readdir(path.join(nodeRoot, 'usr/lib/x86_64-linux-gnu/xtables'))).map((f) => `/usr/lib/x86_64-linux-gnu/xtables/${f}`);
  for (const file of [...binaries, ...(await librariesOf(run, nodeRoot, [...binaries, ...extensions]))]) await place(dir, file.slice(1), path.join(nodeRoot, file));
  await cp(path.join(nodeRoot, 'usr/lib/x86_64-linux-gnu/xtables'), path.join(dir, 'usr/lib/x86_64-linux-gnu/xtables'), { recursive: true, dereference: true });
  for (const tool of ['iptables', 'iptables-save', 'iptables-restore', 'ip6tables', 'ip6tables-save', 'ip6tables-restore']) {
    await symlink('xtables-nft-multi', path.join(dir, 'usr/sbin', tool));
  }
  // The ldd paths are under /lib (merged /usr on bookworm): make sure /lib and /lib64 resolve.
  for (const link of ['lib', 'lib64']) if (!existsSync(path.join(dir, link)) && existsSync(path.join(dir, 'usr', link))) await symlink(`usr/${link}`, path.join(dir, link));
}

/** The path of the Go-built kind, when it has been built. */
export function goBuiltKind(cacheDir: string, kindVersion: string): string {
  return goBuildPath(cacheDir, 'kind', kindVersion, 'kind');
}
