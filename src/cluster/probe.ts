import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
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
    ...(probe.scheme === 'https'
      ? probe.clientCert
        ? { ca: readFileSync(paths.caCert), cert: readFileSync(paths.adminCert), key: readFileSync(paths.adminKey), servername: 'localhost' }
        : { rejectUnauthorized: false }
      : {}),
  };
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
