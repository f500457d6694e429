import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../util/errors.js';

/**
 * The component-shaped parts of KwokctlConfiguration that users write by hand:
 * `componentsPatches[].extraVolumes` and top-level `components[]` (extra components started
 * with the built-in ones). Parsed here once, strictly: a misspelt field in a hand-written
 * component would otherwise start a program with the wrong arguments and no hint why.
 */

export interface VolumeSpec {
  /** Absolute path on the host (relative paths are taken from the current directory, as kwokctl). */
  hostPath: string;
  /** Where the component sees it; container runtimes mount it there. */
  mountPath: string;
  readOnly: boolean;
}

export interface UserPortSpec {
  name: string;
  /** The port the program listens on (inside its container, for container runtimes). */
  port: number;
  /** Host port to publish it on; 0: not published (binary runtime: the same as `port`). */
  hostPort: number;
  protocol: 'TCP' | 'UDP';
}

export interface UserComponentSpec {
  name: string;
  /** Absolute path of the program (binary runtime). */
  binary?: string;
  /** Image (container runtimes). */
  image?: string;
  command: string[];
  args: string[];
  workDir?: string;
  links: string[];
  ports: UserPortSpec[];
  envs: Array<{ name: string; value: string }>;
  volumes: VolumeSpec[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const COMPONENT_FIELDS = new Set(['name', 'binary', 'image', 'command', 'args', 'workDir', 'links', 'ports', 'envs', 'volumes', 'user', 'metricsDiscovery', 'metric']);
const VOLUME_FIELDS = new Set(['name', 'hostPath', 'mountPath', 'readOnly', 'pathType']);
const PORT_FIELDS = new Set(['name', 'port', 'hostPort', 'protocol']);

export function parseVolumes(raw: unknown, where: string, cwd: string = process.cwd()): VolumeSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new UsageError(`${where} must be a list`);
  return raw.map((item, i) => {
    const at = `${where}[${i}]`;
    const v = mapping(item, at, VOLUME_FIELDS);
    const hostPath = requiredString(v.hostPath, `${at}.hostPath`);
    const mountPath = requiredString(v.mountPath, `${at}.mountPath`);
    if (!isAbsolute(mountPath)) throw new UsageError(`${at}.mountPath must be an absolute path, got ${JSON.stringify(mountPath)}`);
    return { hostPath: resolve(cwd, hostPath), mountPath, readOnly: optionalBoolean(v.readOnly, `${at}.readOnly`) };
  });
}

export function parseUserComponents(raw: unknown, where: string, reserved: readonly string[], cwd: string = process.cwd()): UserComponentSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new UsageError(`${where} must be a list`);
  const seen = new Set<string>();
  return raw.map((item, i) => {
    const at = `${where}[${i}]`;
    const c = mapping(item, at, COMPONENT_FIELDS);
    const name = requiredString(c.name, `${at}.name`);
    if (!DNS_LABEL.test(name) || name.length > 63) throw new UsageError(`${at}.name ${JSON.stringify(name)} is not a valid name`, { hint: 'use lower-case letters, digits and dashes (a DNS label)' });
    if (reserved.includes(name)) throw new UsageError(`${at}.name ${JSON.stringify(name)} is a built-in component`, { hint: 'change a built-in component with componentsPatches, or pick another name' });
    if (seen.has(name)) throw new UsageError(`${at}.name ${JSON.stringify(name)} is given twice`);
    seen.add(name);
    const binary = c.binary === undefined || c.binary === '' ? undefined : binaryPath(requiredString(c.binary, `${at}.binary`), `${at}.binary`, cwd);
    const image = c.image === undefined || c.image === '' ? undefined : requiredString(c.image, `${at}.image`);
    if (!binary && !image) throw new UsageError(`${at} (${name}) has neither binary nor image`, { hint: 'give binary: /path/to/program (binary runtime) or image: (container runtimes)' });
    const workDir = c.workDir === undefined ? undefined : requiredString(c.workDir, `${at}.workDir`);
    return {
      name,
      ...(binary ? { binary } : {}),
      ...(image ? { image } : {}),
      command: stringList(c.command, `${at}.command`),
      args: stringList(c.args, `${at}.args`),
      ...(workDir ? { workDir } : {}),
      links: stringList(c.links, `${at}.links`),
      ports: parsePorts(c.ports, `${at}.ports`),
      envs: parseEnvs(c.envs, `${at}.envs`),
      volumes: parseVolumes(c.volumes, `${at}.volumes`, cwd),
    };
  });
}

export function parseEnvs(raw: unknown, where: string): Array<{ name: string; value: string }> {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new UsageError(`${where} must be a list`);
  return raw.map((item, i) => {
    const e = mapping(item, `${where}[${i}]`, new Set(['name', 'value']));
    const value = e.value;
    if (value !== undefined && value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      throw new UsageError(`${where}[${i}].value must be a string`);
    }
    return { name: requiredString(e.name, `${where}[${i}].name`), value: value === undefined || value === null ? '' : String(value) };
  });
}

function parsePorts(raw: unknown, where: string): UserPortSpec[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new UsageError(`${where} must be a list`);
  return raw.map((item, i) => {
    const at = `${where}[${i}]`;
    const p = mapping(item, at, PORT_FIELDS);
    const port = portNumber(p.port, `${at}.port`, false);
    const hostPort = p.hostPort === undefined ? 0 : portNumber(p.hostPort, `${at}.hostPort`, true);
    const protocol = p.protocol === undefined ? 'TCP' : requiredString(p.protocol, `${at}.protocol`).toUpperCase();
    if (protocol !== 'TCP' && protocol !== 'UDP') throw new UsageError(`${at}.protocol must be TCP or UDP, got ${JSON.stringify(p.protocol)}`);
    return { name: p.name === undefined ? `port-${i}` : requiredString(p.name, `${at}.name`), port, hostPort, protocol };
  });
}

function binaryPath(value: string, where: string, cwd: string): string {
  if (/^https?:\/\//i.test(value)) {
    throw new UsageError(`${where}: downloading extra components is not supported (${value})`, { hint: 'download the program yourself and give its path' });
  }
  if (value.startsWith('file://')) return fileURLToPath(value);
  return resolve(cwd, value);
}

function mapping(value: unknown, where: string, fields: ReadonlySet<string>): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UsageError(`${where} must be a mapping`);
  for (const key of Object.keys(value)) {
    if (!fields.has(key)) throw new UsageError(`${where}: unknown field ${JSON.stringify(key)}`, { hint: `known fields: ${[...fields].join(', ')}` });
  }
  return value as Record<string, unknown>;
}

function requiredString(value: unknown, where: string): string {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string' || value === '') throw new UsageError(`${where} is required and must be a string`);
  return value;
}

function optionalBoolean(value: unknown, where: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== 'boolean') throw new UsageError(`${where} must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

function stringList(value: unknown, where: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new UsageError(`${where} must be a list of strings`);
  return value.map((v, i) => {
    if (typeof v === 'string') return v;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    throw new UsageError(`${where}[${i}] must be a string`);
  });
}

function portNumber(value: unknown, where: string, allowZero: boolean): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < (allowZero ? 0 : 1) || n > 65535) {
    throw new UsageError(`${where} must be a port number (${allowZero ? 0 : 1}-65535), got ${JSON.stringify(value)}`);
  }
  return n;
}
