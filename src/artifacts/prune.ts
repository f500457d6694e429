/**
 * `artifacts prune`: what a first run filled the cache directory with, and that the next create
 * does not need, found and removed. A build from Go modules leaves Go caches many times the size of
 * the binaries it made; old versions' binaries and downloads pile up. Binaries a cluster runs
 * (its record names them) are kept: removing them would break its `start` and its passthroughs.
 */
import { lstat, readdir, rm, chmod, stat } from 'node:fs/promises';
import path from 'node:path';
import { goCacheEnv } from './gobuild.js';

export interface PruneEntry {
  /** What it is, for the user: `Go's build cache`, `kubernetes v1.35.0 binaries built from Go modules`. */
  what: string;
  path: string;
  /** The directory a downloaded archive's members were extracted to, which goes with it. */
  extracted?: string;
  /** Disk space it takes (allocated blocks). */
  bytes: number;
}

export interface PrunePlan {
  remove: PruneEntry[];
  /** Binaries kept because a cluster runs them, with the clusters. */
  kept: Array<PruneEntry & { clusters: string[] }>;
  /** The user's own GOCACHE / GOMODCACHE, named so the user knows they were left alone. */
  userGoCaches: string[];
  /** Builds or downloads under way (their lock is held): nothing of theirs may go. */
  busy: string[];
}

export interface PruneOptions {
  /** Paths of the programs each cluster runs, by cluster. */
  inUse: ReadonlyMap<string, readonly string[]>;
  /** Clusters whose programs are not known (an unreadable record): every binary is kept for them. */
  unknown?: readonly string[];
  env?: Readonly<Record<string, string | undefined>>;
  /** How old a lock may be and still be held (proper-lockfile refreshes a held one). */
  lockStaleMs?: number;
  now?: number;
}

const SCHEMES = ['https', 'http', 'file'] as const;
const ARCHIVE_SUFFIXES = ['.tar.gz', '.tgz', '.tar.xz', '.tar', '.zip'];

/** What `artifacts prune` would remove from `cacheDir`, and what it keeps and why. Reads only. */
export async function planPrune(cacheDir: string, options: PruneOptions): Promise<PrunePlan> {
  const env = options.env ?? process.env;
  const plan: PrunePlan = { remove: [], kept: [], userGoCaches: [], busy: [] };
  plan.busy = await heldLocks(cacheDir, options.lockStaleMs ?? 20_000, options.now ?? Date.now());
  const owned = goCacheEnv(cacheDir, env);
  if (!owned.GOCACHE) plan.userGoCaches.push(`GOCACHE=${env['GOCACHE']}`);
  if (!owned.GOMODCACHE) plan.userGoCaches.push(`GOMODCACHE=${env['GOMODCACHE']}`);
  // `build`: what only a build needs (Go's caches, its module), which a build under way is using.
  const candidates: Array<{ what: string; path: string; role: 'build' | 'binaries'; extracted?: string }> = [];
  if (owned.GOCACHE) candidates.push({ what: "Go's build cache", path: owned.GOCACHE, role: 'build' });
  if (owned.GOMODCACHE) candidates.push({ what: "Go's module cache", path: owned.GOMODCACHE, role: 'build' });
  candidates.push({ what: 'the Go modules written for builds', path: path.join(cacheDir, 'gobuild', 'src'), role: 'build' });
  for (const kind of await dirs(path.join(cacheDir, 'gobuild'))) {
    if (kind === 'src') continue;
    for (const version of await dirs(path.join(cacheDir, 'gobuild', kind))) {
      candidates.push({ what: `${kind} ${version} binaries built from Go modules`, path: path.join(cacheDir, 'gobuild', kind, version), role: 'binaries' });
    }
  }
  for (const scheme of SCHEMES) {
    for (const download of await downloads(path.join(cacheDir, scheme))) {
      const where = path.relative(path.join(cacheDir, scheme), download.path);
      const shown = scheme === 'file' ? `extracted from /${where}` : `downloaded ${scheme}://${where}`;
      candidates.push({ what: shown, path: download.path, role: 'binaries', ...(download.extracted ? { extracted: download.extracted } : {}) });
    }
  }
  const building = plan.busy.some((lock) => inside(lock, path.join(cacheDir, 'gobuild')));
  for (const c of candidates) {
    const parts = [c.path, ...(c.extracted ? [c.extracted] : [])];
    let bytes = 0;
    let exists = false;
    for (const p of parts) {
      const size = await diskUsage(p);
      if (size !== undefined) {
        exists = true;
        bytes += size;
      }
    }
    if (!exists) continue;
    const entry: PruneEntry = { what: c.what, path: c.path, ...(c.extracted ? { extracted: c.extracted } : {}), bytes };
    // A lock is `<target>.lock` next to what it guards: a build's output directory, a download's file.
    if (plan.busy.some((lock) => parts.some((p) => inside(lock.slice(0, -'.lock'.length), p) || inside(p, lock.slice(0, -'.lock'.length))))) continue;
    if (c.role === 'build' && building) continue;
    const users = c.role === 'binaries' ? [...[...options.inUse].filter(([, paths]) => paths.some((file) => parts.some((p) => inside(file, p)))).map(([cluster]) => cluster), ...(options.unknown ?? [])] : [];
    if (users.length > 0) plan.kept.push({ ...entry, clusters: users });
    else plan.remove.push(entry);
  }
  return plan;
}

const inside = (file: string, dir: string): boolean => file === dir || file.startsWith(dir + path.sep);

/** Removes what the plan says; returns the bytes freed. */
export async function prune(plan: PrunePlan, cacheDir: string): Promise<number> {
  let freed = 0;
  for (const entry of plan.remove) {
    await removeTree(entry.path);
    if (entry.extracted) await removeTree(entry.extracted);
    freed += entry.bytes;
  }
  // Empty directories left behind (a host's, a kind's) are no use to anyone.
  for (const root of ['gobuild', 'go', ...SCHEMES]) await removeEmptyDirs(path.join(cacheDir, root));
  return freed;
}

/**
 * Removes a directory tree, including Go's module cache, whose directories Go makes read-only:
 * an unprivileged user cannot delete their entries until they are writable again.
 */
export async function removeTree(target: string): Promise<void> {
  try {
    await rm(target, { recursive: true, force: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
    await makeWritable(target);
    await rm(target, { recursive: true, force: true });
  }
}

async function makeWritable(dir: string): Promise<void> {
  const info = await lstat(dir).catch(() => undefined);
  if (!info?.isDirectory()) return;
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) if (entry.isDirectory()) await makeWritable(path.join(dir, entry.name));
}

/** `12 KB`, `850 MB`, `3.2 GB` (powers of 1000, as `df -H` and the docs say them). */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

async function dirs(dir: string): Promise<string[]> {
  try {
    // Not a temporary output (`.v1.36.1.<pid>.tmp`) or a lock (`v1.36.1.lock`).
    return (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.') && !e.name.endsWith('.lock')).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** The directory members of `file` are extracted to (sources.ts's memberCachePath). */
function extractionDir(file: string): string {
  const base = path.basename(file);
  const suffix = ARCHIVE_SUFFIXES.find((s) => base.toLowerCase().endsWith(s));
  return path.join(path.dirname(file), suffix ? base.slice(0, base.length - suffix.length) : `${base}.d`);
}

/** Each downloaded file under `root`, with the directory its members were extracted to; extraction directories whose file is gone count alone. */
async function downloads(root: string): Promise<Array<{ path: string; extracted?: string }>> {
  const out: Array<{ path: string; extracted?: string }> = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const names = new Set(entries.map((e) => e.name));
    const claimed = new Set<string>();
    for (const e of entries) {
      if (!e.isFile() || e.name.endsWith('.lock') || e.name.includes('.tmp')) continue;
      const extracted = extractionDir(path.join(dir, e.name));
      const hasExtracted = names.has(path.basename(extracted));
      if (hasExtracted) claimed.add(path.basename(extracted));
      out.push({ path: path.join(dir, e.name), ...(hasExtracted ? { extracted } : {}) });
    }
    for (const e of entries) {
      if (!e.isDirectory() || claimed.has(e.name) || e.name.endsWith('.lock')) continue;
      await walk(path.join(dir, e.name));
    }
  };
  await walk(root);
  return out;
}

/** Bytes of disk `target` takes (its blocks), or undefined when it does not exist. */
async function diskUsage(target: string): Promise<number | undefined> {
  const info = await lstat(target).catch(() => undefined);
  if (!info) return undefined;
  const own = info.blocks !== undefined ? info.blocks * 512 : info.size;
  if (!info.isDirectory()) return own;
  let total = own;
  for (const entry of await readdir(target).catch(() => [] as string[])) total += (await diskUsage(path.join(target, entry))) ?? 0;
  return total;
}

/** Locks (`*.lock` directories proper-lockfile keeps fresh) held now, anywhere a build or download writes. */
async function heldLocks(cacheDir: string, staleMs: number, now: number): Promise<string[]> {
  const held: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 12) return;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.name.endsWith('.lock')) {
        const info = await stat(full).catch(() => undefined);
        if (info && now - info.mtimeMs < staleMs) held.push(full);
      } else if (e.isDirectory()) await walk(full, depth + 1);
    }
  };
  // Not Go's caches: Go keeps no such locks, and walking them takes long.
  for (const root of ['gobuild', ...SCHEMES]) await walk(path.join(cacheDir, root), 0);
  return held;
}

async function removeEmptyDirs(dir: string): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => undefined);
  if (!entries) return false;
  let empty = true;
  for (const e of entries) {
    // A lock is an empty directory, and held.
    if (!e.isDirectory() || e.name.endsWith('.lock') || !(await removeEmptyDirs(path.join(dir, e.name)))) empty = false;
  }
  if (empty) await rm(dir, { recursive: true, force: true });
  return empty;
}
