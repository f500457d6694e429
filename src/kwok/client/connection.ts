/**
 * What the HTTP client needs from a KubeConfig: the server URL, TLS material for a keep-alive agent
 * and the auth headers. Headers are cached for a minute because exec plugins and token files can be
 * slow, and dropped at once after a 401 so rotated credentials are picked up. An in-cluster
 * service-account token file is read here (like client-go's cached file token source: re-read at
 * most every minute, and at once after a 401).
 */
import { KubeConfig } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import type { SecureContextOptions } from 'node:tls';
import { readTokenFile } from './in-cluster.js';

export interface TlsMaterial extends Pick<SecureContextOptions, 'ca' | 'cert' | 'key' | 'pfx' | 'passphrase'> {
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface Connection {
  readonly server: URL;
  readonly tls: TlsMaterial;
  headers(): Promise<Record<string, string>>;
  /** Forget cached credentials (after a 401). */
  invalidate(): void;
}

const headerTtlMs = 60_000;

async function readOptions(config: KubeConfig, server: URL): Promise<RequestOptions> {
  const options: RequestOptions = {};
  const cluster = config.getCurrentCluster();
  if (server.protocol === 'http:' && cluster && !cluster.skipTLSVerify) {
    // client-node refuses plain HTTP unless skipTLSVerify is set; TLS settings are irrelevant there.
    const copy = new KubeConfig();
    copy.loadFromClusterAndUser({ ...cluster, skipTLSVerify: true }, config.getCurrentUser() ?? { name: 'kwok' });
    await copy.applyToHTTPSOptions(options);
  } else {
    await config.applyToHTTPSOptions(options);
  }
  return options;
}

export interface ConnectionOptions {
  /** A bearer token file (the in-cluster service account's), re-read as it rotates. */
  tokenFile?: string;
}

function toHeaders(options: RequestOptions, tokenFile: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (typeof value === 'string' || typeof value === 'number') headers[name] = String(value);
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  if (options.auth) headers['Authorization'] = `Basic ${Buffer.from(options.auth).toString('base64')}`;
  if (tokenFile) {
    const token = readTokenFile(tokenFile);
    if (token) headers['Authorization'] = `Bearer ${token}`;
  }
  return headers;
}

export async function buildConnection(config: KubeConfig, options: ConnectionOptions = {}): Promise<Connection> {
  const cluster = config.getCurrentCluster();
  if (!cluster?.server) throw new Error('kubeconfig has no current cluster with a server URL');
  const server = new URL(cluster.server);
  const first = await readOptions(config, server);
  const tls: TlsMaterial = {};
  if (first.ca !== undefined) tls.ca = first.ca;
  if (first.cert !== undefined) tls.cert = first.cert;
  if (first.key !== undefined) tls.key = first.key;
  if (first.pfx !== undefined) tls.pfx = first.pfx;
  if (first.passphrase !== undefined) tls.passphrase = first.passphrase;
  if (first.rejectUnauthorized !== undefined) tls.rejectUnauthorized = first.rejectUnauthorized;
  if (first.servername !== undefined) tls.servername = first.servername;

  let cached: { headers: Record<string, string>; at: number } | undefined = { headers: toHeaders(first, options.tokenFile), at: Date.now() };
  let refreshing: Promise<Record<string, string>> | undefined;
  return {
    server,
    tls,
    async headers() {
      if (cached && Date.now() - cached.at < headerTtlMs) return cached.headers;
      refreshing ??= readOptions(config, server)
        .then((read) => {
          cached = { headers: toHeaders(read, options.tokenFile), at: Date.now() };
          return cached.headers;
        })
        .finally(() => {
          refreshing = undefined;
        });
      return refreshing;
    },
    invalidate() {
      cached = undefined;
    },
  };
}
