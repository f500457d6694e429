import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { ReadinessProbe } from '../components/index.js';
import type { ClusterPaths } from '../naming/naming.js';

export interface ProbeResult {
  ok: boolean;
  detail: string;
  /** The HTTP status, when the component answered at all (it serves, ready or not). */
  status?: number;
}

/**
 * One readiness check: HTTP 200 within a short timeout. The apiserver needs our client cert.
 * A component without a probe (a user's extra component) counts as ready: callers check that
 * it runs.
 */
export async function probeOnce(probe: ReadinessProbe | undefined, paths: ClusterPaths, timeoutMs = 2000): Promise<ProbeResult> {
  if (!probe) return { ok: true, detail: 'no readiness probe' };
  return new Promise((resolve) => {
    const options = { ...requestOptions(probe, paths), path: probe.path, timeout: timeoutMs };
    const req = (probe.scheme === 'https' ? httpsRequest : httpRequest)(options, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += body.length < 16384 ? c : ''));
      res.on('end', () => resolve({ ok: res.statusCode === 200, detail: `${res.statusCode} ${summarizeBody(body)}`, ...(res.statusCode !== undefined ? { status: res.statusCode } : {}) }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', (error) => resolve({ ok: false, detail: error.message }));
    req.end();
  });
}

/** Where and how a probe connects: its port on the host, with the admin client certificate when it needs one. */
function requestOptions(probe: ReadinessProbe, paths: ClusterPaths): { host: string; port: number; method: 'GET' } & Record<string, unknown> {
  return {
    host: '127.0.0.1',
    port: probe.port,
    method: 'GET',
    ...(probe.scheme === 'https' ? (probe.clientCert ? { ...adminClient(paths), servername: 'localhost' } : unverifiedClient()) : {}),
  };
}

/**
 * The TLS set-up for the components whose serving certificate nobody vouches for (kcm and the
 * scheduler make their own): the probe does not verify them, so it needs no trust store at all.
 * With default trust, and NODE_EXTRA_CA_CERTS deferred (src/util/extra-ca-certs.ts), the first
 * check of a create parsed Node's roots and the whole bundle while kube-apiserver starting beside
 * it wanted every cycle. `ca: []` makes a context with an empty store. Kept alive
 * as the admin client is, so repeated checks reuse a connection.
 */
let unverified: { secureContext: SecureContext; agent: HttpsAgent; rejectUnauthorized: false } | undefined;

function unverifiedClient(): { secureContext: SecureContext; agent: HttpsAgent; rejectUnauthorized: false } {
  unverified ??= {
    secureContext: createSecureContext({ ca: [] }),
    agent: new HttpsAgent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }),
    rejectUnauthorized: false,
  };
  return unverified;
}

/**
 * The TLS set-up for the admin client certificate, made once per set of files' contents and kept
 * with an agent of its own (keep-alive, as Node's global one). Given as ca/cert/key, every new
 * connection parsed the private key again: while kube-apiserver does not listen yet, each check
 * is a new connection, and those parses were most of create's own CPU while it waited. The files
 * are still read on every check, so credentials that change get a set-up of their own.
 */
const adminClients = new Map<string, { secureContext: SecureContext; agent: HttpsAgent }>();

function adminClient(paths: ClusterPaths): { secureContext: SecureContext; agent: HttpsAgent } {
  const [ca, cert, key] = [paths.caCert, paths.adminCert, paths.adminKey].map((file) => readFileSync(file, 'utf8')) as [string, string, string];
  const id = `${ca}\0${cert}\0${key}`;
  let client = adminClients.get(id);
  if (!client) {
    client = { secureContext: createSecureContext({ ca, cert, key }), agent: new HttpsAgent({ keepAlive: true, scheduling: 'lifo', timeout: 5000 }) };
    adminClients.set(id, client);
  }
  return client;
}

/**
 * One GET of `path` from a component, as its readiness probe connects (so the apiserver can be
 * asked something without loading the kubeconfig and client code of src/kube); the whole body.
 * Rejects when it cannot connect or `signal` aborts.
 */
export function getOnce(probe: ReadinessProbe, path: string, paths: ClusterPaths, signal: AbortSignal): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = (probe.scheme === 'https' ? httpsRequest : httpRequest)({ ...requestOptions(probe, paths), path, signal }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * An apiserver's failing /readyz lists every check, `[+]name ok` or `[-]name failed: ...`: keep
 * the failing ones, which say what it still waits for; any other body is cut short.
 */
export function summarizeBody(body: string): string {
  const failing = body.split('\n').filter((l) => l.startsWith('[-]')).map((l) => l.slice(3).split(' ')[0]);
  return failing.length > 0 ? `failing: ${failing.join(', ')}` : body.trim().slice(0, 200);
}
