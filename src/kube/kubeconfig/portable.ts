/**
 * `get kubeconfig`: the cluster's kubeconfig made self-contained, as kwokctl prints it. Only the
 * current context with its cluster and user is kept, every file reference is replaced by the
 * file's content (base64 data), and the server, TLS verification and client identity may be
 * changed on the way out. The result can be copied to another directory or machine.
 */
import { isAbsolute, resolve } from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../../util/errors.js';
import { HostPortError, parseHostPort, type HostPort } from '../../util/host-port.js';
import type { KubeConfig, KubeconfigCluster, KubeconfigUser } from './types.js';
import { stringifyKubeconfigValue } from './yaml-style.js';

export interface PortableKubeconfigOptions {
  /** Directory the file's relative paths are relative to (the kubeconfig's own). */
  baseDir: string;
  /** Reads a referenced certificate or key file. */
  readFile: (path: string) => Promise<string>;
  /** kwokctl's --host: `host` keeps the server's port, `host:port` replaces both; '' keeps the server. */
  host: string;
  /** kwokctl's --insecure-skip-tls-verify: no server verification, so no CA either. */
  insecureSkipTlsVerify: boolean;
  /** A client certificate to use instead of the file's (kwokctl's --user/--group), PEM text. */
  client?: { cert: string; key: string };
}

type Named<T> = { name?: unknown } & T;

const base64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');

export async function buildPortableKubeconfig(text: string, options: PortableKubeconfigOptions): Promise<KubeConfig> {
  const doc = (parse(text) ?? {}) as Record<string, unknown>;
  const current = String(doc['current-context'] ?? '');
  const contexts = (doc.contexts ?? []) as Array<Named<{ context?: { cluster?: string; user?: string } }>>;
  const context = contexts.find((c) => c.name === current)?.context;
  if (!context?.cluster) throw new UsageError('the cluster kubeconfig has no current context with a cluster', { hint: 'recreate the cluster' });
  const clusterName = context.cluster;
  const rawCluster = ((doc.clusters ?? []) as Array<Named<{ cluster?: Record<string, unknown> }>>).find((c) => c.name === clusterName)?.cluster;
  if (!rawCluster) throw new UsageError(`the cluster kubeconfig has no cluster ${clusterName}`, { hint: 'recreate the cluster' });
  const userName = context.user ?? '';
  const rawUser = userName ? ((doc.users ?? []) as Array<Named<{ user?: Record<string, unknown> }>>).find((u) => u.name === userName)?.user : undefined;

  const embed = async (data: unknown, file: unknown): Promise<string | undefined> => {
    if (typeof data === 'string' && data !== '') return data;
    if (typeof file === 'string' && file !== '') return base64(await options.readFile(isAbsolute(file) ? file : resolve(options.baseDir, file)));
    return undefined;
  };

  const server = options.host ? replaceHost(String(rawCluster.server ?? ''), options.host) : String(rawCluster.server ?? '');
  const insecure = options.insecureSkipTlsVerify || rawCluster['insecure-skip-tls-verify'] === true;
  const caData = insecure ? undefined : await embed(rawCluster['certificate-authority-data'], rawCluster['certificate-authority']);
  // Key order as clientcmd writes it.
  const cluster: KubeconfigCluster = {
    ...(caData !== undefined ? { 'certificate-authority-data': caData } : {}),
    ...(insecure ? { 'insecure-skip-tls-verify': true } : {}),
    server,
  };

  const config: KubeConfig = {
    apiVersion: 'v1',
    clusters: [{ cluster, name: clusterName }],
    contexts: [{ context: userName ? { cluster: clusterName, user: userName } : { cluster: clusterName }, name: current }],
    'current-context': current,
    kind: 'Config',
    preferences: {},
    users: [],
  };
  if (userName && rawUser) {
    const certData = options.client ? base64(options.client.cert) : await embed(rawUser['client-certificate-data'], rawUser['client-certificate']);
    const keyData = options.client ? base64(options.client.key) : await embed(rawUser['client-key-data'], rawUser['client-key']);
    const user: KubeconfigUser = {
      ...(certData !== undefined ? { 'client-certificate-data': certData } : {}),
      ...(keyData !== undefined ? { 'client-key-data': keyData } : {}),
    };
    config.users.push({ name: userName, user });
  }
  return config;
}

/**
 * --host as `get kubeconfig` takes it: a host name or IP address, optionally with a port (an IPv6
 * address with a port in brackets). Checked before anything is read or written: a server URL
 * made from "bad host:99999" would be printed as if it were fine, and fail only where it is used.
 */
export function checkHostOverride(address: string): HostPort {
  try {
    return parseHostPort(address, { portOptional: true });
  } catch (error) {
    if (error instanceof HostPortError) throw new UsageError(`--host: ${error.message}`, { hint: 'give a host name or IP address, optionally with :port (1-65535); an IPv6 address with a port as [::1]:6443' });
    throw error;
  }
}

/**
 * kwokctl's --host: an address with a port replaces the server's host and port; one without
 * keeps the server's port (an IPv6 address gets brackets).
 */
export function replaceHost(server: string, address: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new UsageError(`the cluster's server ${JSON.stringify(server)} is not a URL`, { hint: 'recreate the cluster' });
  }
  const { host, port } = checkHostOverride(address);
  const hostPart = `${host.includes(':') ? `[${host}]` : host}:${port ?? (url.port || (url.protocol === 'https:' ? '443' : '80'))}`;
  // Built by hand: URL.host would drop a port equal to the scheme's default.
  return `${url.protocol}//${hostPart}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * The text kwokctl prints: clientcmd's layout, without the empty `preferences` that current
 * clientcmd no longer writes (byte-equal output for the same cluster).
 */
export function renderPortableKubeconfig(config: KubeConfig): string {
  const { preferences: _preferences, ...rest } = config;
  return stringifyKubeconfigValue(rest);
}
