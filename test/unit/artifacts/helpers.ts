/** Test fixtures for src/artifacts: a loopback HTTP server, temp dirs, a tarball and a fake `go`. */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, readdir, rm, writeFile, chmod } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { c as tarCreate } from 'tar';

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

export async function tempDir(prefix = 'kwokts-artifacts-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Every file under `dir` (relative paths), for "nothing left behind" assertions. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else out.push(path.relative(dir, full));
    }
  };
  await walk(dir);
  return out.sort();
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, hit: number) => void | Promise<void>;

export interface TestServer {
  url: string;
  host: string;
  /** Requests per path. */
  hits: Map<string, number>;
  route(pathname: string, handler: Route): void;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const routes = new Map<string, Route>();
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    const hit = (hits.get(pathname) ?? 0) + 1;
    hits.set(pathname, hit);
    const handler = routes.get(pathname);
    if (!handler) {
      res.statusCode = 404;
      res.end('not found');
      return;
    }
    void Promise.resolve(handler(req, res, hit)).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    hits,
    route: (p, h) => routes.set(p, h),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Serves `body` with a Content-Length. */
export function serveBytes(body: Buffer | string): Route {
  return (_req, res) => {
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': data.length });
    res.end(data);
  };
}

/** Serves `body` slowly, in chunks, so concurrent requests overlap. */
export function serveSlowly(body: Buffer, chunks = 10, delayMs = 30): Route {
  return async (_req, res) => {
    res.writeHead(200, { 'content-length': body.length });
    const size = Math.ceil(body.length / chunks);
    for (let i = 0; i < body.length; i += size) {
      res.write(body.subarray(i, i + size));
      await new Promise((r) => setTimeout(r, delayMs));
    }
    res.end();
  };
}

/** Sends half the body, then destroys the socket, for the first `failures` requests. */
export function serveInterrupted(body: Buffer, failures: number): Route {
  return (_req, res, hit) => {
    res.writeHead(200, { 'content-length': body.length });
    if (hit <= failures) {
      res.write(body.subarray(0, Math.floor(body.length / 2)), () => {
        setTimeout(() => res.socket?.destroy(), 20);
      });
      return;
    }
    res.end(body);
  };
}

export function randomBinary(size = 256 * 1024): Buffer {
  // A shell script header keeps "executable" meaningful; the rest is random payload.
  return Buffer.concat([Buffer.from('#!/bin/sh\necho fake\nexit 0\n'), randomBytes(size)]);
}

/** Builds `<dir>/<name>.tar.gz` with each member under `<top>/`. Returns its path and bytes. */
export async function makeTarGz(dir: string, name: string, top: string, members: Record<string, Buffer | string>): Promise<string> {
  const staging = path.join(dir, `stage-${randomBytes(3).toString('hex')}`);
  await mkdir(path.join(staging, top, 'Documentation'), { recursive: true });
  for (const [member, content] of Object.entries(members)) {
    await writeFile(path.join(staging, top, member), content, { mode: 0o755 });
  }
  await writeFile(path.join(staging, top, 'README.md'), 'readme');
  const file = path.join(dir, name);
  await tarCreate({ gzip: true, file, cwd: staging }, [top]);
  await rm(staging, { recursive: true, force: true });
  return file;
}

/**
 * A fake `go` (a Node script) that understands the invocations gobuild.ts makes:
 * `env GOVERSION`, `mod download -json M@V`, `get ...`, `build ... -o DIR/ pkgs...`. The binaries it
 * "builds" are shell scripts that print the version text the real ones print. Each invocation is
 * appended to `<dir>/go.log`. `FAKE_GO_WRONG_VERSION=1` makes the binaries lie about their version.
 */
export async function makeFakeGo(dir: string, options: { wrongVersion?: boolean; failBuild?: boolean; buildDelayMs?: number; upstreamSum?: string; refuseDownload?: boolean } = {}): Promise<{ go: string; log: string }> {
  const go = path.join(dir, 'fake-go.mjs');
  const log = path.join(dir, 'go.log');
  const modDir = path.join(dir, 'fake-modcache');
  await mkdir(modDir, { recursive: true });
  const script = `#!/usr/bin/env node
import fs from 'node:fs';
import path from 'node:path';
const args = process.argv.slice(2);
fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cwd: process.cwd(), args, cgo: process.env.CGO_ENABLED ?? null, gocache: process.env.GOCACHE ?? null, gomodcache: process.env.GOMODCACHE ?? null }) + '\\n');
const wrong = ${JSON.stringify(!!options.wrongVersion)};
if (args[0] === 'env') { console.log('go1.99.0'); process.exit(0); }
if (args[0] === 'mod' && args[1] === 'download') {
  const [mod, ver] = args[3].split('@');
  if (${JSON.stringify(!!options.refuseDownload)}) {
    // What go prints when the proxy refuses a module (go mod download -json, exit 1).
    const url = 'https://proxy.golang.org/' + mod + '/@v/' + ver + '.info';
    console.log(JSON.stringify({ Path: mod, Version: ver, Error: mod + '@' + ver + ': reading ' + url + ': 403 Forbidden\\n\\tserver response: This module version is not available.' }, null, '\\t'));
    process.exit(1);
  }
  const file = path.join(${JSON.stringify(modDir)}, mod.replace(/\\//g, '_') + '@' + ver + '.mod');
  let text;
  if (mod === 'sigs.k8s.io/cluster-autoscaler') {
    text = 'module sigs.k8s.io/cluster-autoscaler\\n\\ngo 1.26.0\\n\\nrequire (\\n\\tk8s.io/kubernetes v1.36.0\\n\\tk8s.io/api v0.36.0\\n)\\n\\nreplace k8s.io/api => k8s.io/api v0.36.0\\n\\nreplace k8s.io/client-go => k8s.io/client-go v0.36.0\\n';
  } else if (mod === 'k8s.io/kubernetes') {
    text = 'module k8s.io/kubernetes\\n\\ngo 1.26.0\\n\\nrequire (\\n\\tk8s.io/api v0.0.0\\n)\\n\\nreplace (\\n\\tk8s.io/api => ./staging/src/k8s.io/api\\n\\tk8s.io/client-go => ./staging/src/k8s.io/client-go\\n)\\n';
  } else {
    text = 'module ' + mod + '\\n\\ngo 1.25.0\\n\\nreplace (\\n\\tgo.etcd.io/etcd/api/v3 => ../api\\n\\tgo.etcd.io/etcd/client/v3 => ../client/v3\\n)\\n\\nreplace go.etcd.io/etcd => ./FORBIDDEN_DEPENDENCY\\n';
  }
  fs.writeFileSync(file, text);
  const upstreamSum = ${JSON.stringify(options.upstreamSum ?? null)};
  let Dir;
  if (upstreamSum !== null) {
    // The module's extracted source, with its own go.sum (go mod download -json reports it as Dir).
    Dir = path.join(${JSON.stringify(modDir)}, mod.replace(/\\//g, '_') + '@' + ver);
    fs.mkdirSync(Dir, { recursive: true });
    fs.writeFileSync(path.join(Dir, 'go.sum'), upstreamSum.replace(/MOD/g, mod));
  }
  console.log(JSON.stringify({ Path: mod, Version: ver, GoMod: file, ...(Dir ? { Dir } : {}) }, null, '\\t'));
  process.exit(0);
}
if (args[0] === 'get') {
  // Like go: a go.sum present before the get is what it checks modules against.
  const sum = path.join(process.cwd(), 'go.sum');
  if (fs.existsSync(sum)) fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ cwd: process.cwd(), args: ['go.sum-at-get'], sum: fs.readFileSync(sum, 'utf8') }) + '\\n');
  console.error('go: downloading k8s.io/api v0.36.1');
  console.error('go: downloading k8s.io/client-go v0.36.1');
  console.error('go: added ' + args.slice(1).join(' '));
  process.exit(0);
}
if (args[0] === 'list') {
  // go list -deps: two dependencies, then the packages themselves.
  console.log(['internal/abi', 'runtime', ...args.slice(args.indexOf('-f') + 2)].join('\\n'));
  process.exit(0);
}
if (args[0] === 'build') {
  const delay = ${options.buildDelayMs ?? 0};
  if (delay) await new Promise((r) => setTimeout(r, delay));
  if (${JSON.stringify(!!options.failBuild)}) { console.error('compile error: something broke'); process.exit(1); }
  const o = args.indexOf('-o');
  const out = args[o + 1];
  const pkgs = args.slice(o + 2);
  // -v: each package as it is compiled, on stderr.
  if (args.includes('-v')) for (const p of ['internal/abi', 'runtime', ...pkgs]) console.error(p);
  const ldflags = args[args.indexOf('-ldflags') + 1] ?? '';
  const kubeVersion = (/component-base\\/version\\.gitVersion=(\\S+)/.exec(ldflags) ?? [])[1];
  const gomod = fs.readFileSync(path.join(process.cwd(), 'go.mod'), 'utf8');
  const etcdVersion = ((/go\\.etcd\\.io\\/etcd\\/server\\/v3 v(\\S+)/.exec(gomod)) ?? [])[1];
  for (const pkg of pkgs) {
    const parts = pkg.split('/');
    let name = parts[parts.length - 1];
    if (/^v\\d+$/.test(name)) name = parts[parts.length - 2];
    let text;
    if (pkg.startsWith('sigs.k8s.io/cluster-autoscaler')) {
      text = wrong ? 'Usage of something else' : 'Usage: --cloud-provider string';
    } else if (pkg.startsWith('k8s.io/kubernetes/cmd/')) {
      const v = wrong ? 'v0.0.0-master' : kubeVersion;
      text = name === 'kubectl' ? 'Client Version: ' + v : 'Kubernetes ' + v;
    } else {
      const v = wrong ? '0.0.0' : etcdVersion;
      text = name === 'server' ? 'etcd Version: ' + v : name + ' version: ' + v;
    }
    fs.writeFileSync(path.join(out, name), '#!/bin/sh\\necho "' + text + '"\\n', { mode: 0o755 });
  }
  console.error('built ' + pkgs.length + ' packages');
  process.exit(0);
}
console.error('fake go: unexpected ' + args.join(' '));
process.exit(2);
`;
  await writeFile(go, script);
  await chmod(go, 0o755);
  return { go, log };
}
