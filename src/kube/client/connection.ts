/**
 * What the HTTP client needs to reach a cluster: the server URL, TLS material for a keep-alive
 * agent and the auth headers. Headers are cached for a minute (token files rotate, exec plugins
 * are slow) or until an exec credential expires, and dropped at once after a 401 so rotated
 * credentials are picked up.
 */
import { explicitClientChain } from './client-chain.js';
import { readCredentials, type CredentialAnswer } from './credentials.js';
import type { RestConfig, TlsMaterial } from '../kubeconfig/rest-config.js';

export type { TlsMaterial } from '../kubeconfig/rest-config.js';

export interface Connection {
  readonly server: URL;
  readonly tls: TlsMaterial;
  headers(): Promise<Record<string, string>>;
  /** Forget cached credentials (after a 401). */
  invalidate(): void;
}

const headerTtlMs = 60_000;

function expiry(answer: CredentialAnswer): number {
  return Math.min(Date.now() + headerTtlMs, answer.expiresAt ?? Infinity);
}

export async function buildConnection(config: RestConfig): Promise<Connection> {
  const first = await readCredentials(config.credentials);
  // An exec plugin may answer with a client certificate instead of a token; the agent needs it.
  const tls: TlsMaterial = { ...config.tls, ...(first.cert ? { cert: first.cert } : {}), ...(first.key ? { key: first.key } : {}) };
  if (tls.cert) tls.cert = explicitClientChain(tls.cert);
  let cached: { headers: Record<string, string>; until: number } | undefined = { headers: first.headers, until: expiry(first) };
  let refreshing: Promise<Record<string, string>> | undefined;
  return {
    server: config.server,
    tls,
    async headers() {
      if (cached && Date.now() < cached.until) return cached.headers;
      refreshing ??= readCredentials(config.credentials)
        .then((answer) => {
          cached = { headers: answer.headers, until: expiry(answer) };
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
