/**
 * Who may use the controller's server when it requires client certificates (--client-ca-file).
 *
 * The server stands in for every node's kubelet: /exec, /attach and /portForward run what the
 * cluster's Exec and PortForward rules say, on this machine, for any pod name. A kubelet serves
 * these to the apiserver's kubelet client certificate and to authorized users only; so does the
 * controller, by the identity in a client certificate of the cluster CA (there is no apiserver to
 * ask, as the kubelet does with a SubjectAccessReview):
 * - group `system:masters` (the admin, and the apiserver's --kubelet-client-certificate) or user
 *   `kube-apiserver-kubelet-client` (kubeadm's name for the apiserver's, as in kind): everything;
 * - group `system:monitoring` (Prometheus, metrics-server): /metrics and the Metric paths under it;
 * - any other certificate of the CA: 403;
 * - no certificate, one the CA did not sign, or plain HTTP: 401.
 * The health endpoints (/healthz, /livez, /readyz) answer anyone, over HTTP too, as the
 * controller-manager's and the scheduler's do: they tell nothing, and kwok's own e2e suite probes
 * the controller's port with plain HTTP.
 *
 * With an ApiReviewer (api-review.ts), a bearer token over HTTPS is taken too, and an identity the
 * rules above refuse is asked of the apiserver, with the kubelet's attributes (accessAttributes).
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { AccessAttributes, ApiReviewer } from './api-review.js';

export const MASTERS_GROUP = 'system:masters';
export const APISERVER_KUBELET_CLIENT = 'kube-apiserver-kubelet-client';
export const MONITORING_GROUP = 'system:monitoring';

export interface ClientIdentity {
  user: string;
  groups: readonly string[];
}

export type Refusal = { status: 401 | 403; message: string };

const HEALTH = new Set(['/healthz', '/livez', '/readyz']);

function isMetricsPath(path: string): boolean {
  return path === '/metrics' || path.startsWith('/metrics/');
}

/** Kubernetes' reading of a client certificate: CN is the user, each O a group. */
export function identityOf(socket: unknown): ClientIdentity | undefined {
  const tls = socket as Partial<TLSSocket>;
  if (tls.encrypted !== true || tls.authorized !== true || typeof tls.getPeerCertificate !== 'function') return undefined;
  const subject = tls.getPeerCertificate().subject as Record<string, string | string[] | undefined> | undefined;
  if (!subject) return undefined;
  const user = subject['CN'];
  const organizations = subject['O'];
  return {
    user: Array.isArray(user) ? (user[0] ?? '') : (user ?? ''),
    groups: organizations === undefined ? [] : Array.isArray(organizations) ? organizations : [organizations],
  };
}

const UNAUTHORIZED: Refusal = { status: 401, message: 'Unauthorized: this endpoint takes HTTPS with a client certificate of the cluster CA (or, where the controller may ask the apiserver, a bearer token)' };

function forbidden(identity: ClientIdentity, path: string, why = ''): Refusal {
  return { status: 403, message: `Forbidden: user "${identity.user}" may not use ${path}${why}` };
}

/** Whether `identity` may request `path` by the controller's own rules; undefined when it may. */
export function authorize(identity: ClientIdentity | undefined, path: string): Refusal | undefined {
  if (HEALTH.has(path)) return undefined;
  if (!identity) return UNAUTHORIZED;
  if (identity.groups.includes(MASTERS_GROUP) || identity.user === APISERVER_KUBELET_CLIENT) return undefined;
  if (identity.groups.includes(MONITORING_GROUP) && isMetricsPath(path)) return undefined;
  return forbidden(identity, path);
}

/**
 * What the kubelet asks the apiserver for a request (its server's auth attributes): the verb from
 * the method, and for the paths the controller serves, nodes/metrics for the Metric paths (named
 * by node where the path names one) and nodes/proxy for logs, exec, attach and port-forward. The
 * controller's own /metrics is a component's, asked as a path, as the controller-manager asks.
 */
export function accessAttributes(method: string | undefined, path: string): AccessAttributes {
  const verbs: Record<string, string> = { GET: 'get', HEAD: 'get', POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: 'delete' };
  const verb = verbs[method ?? 'GET'] ?? (method ?? 'get').toLowerCase();
  if (path === '/metrics') return { kind: 'path', verb, path };
  if (path.startsWith('/metrics/')) return { kind: 'resource', verb, resource: 'nodes', subresource: 'metrics', name: /^\/metrics\/nodes\/([^/]+)\//.exec(path)?.[1] ?? '' };
  return { kind: 'resource', verb, resource: 'nodes', subresource: 'proxy', name: '' };
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * The refusal for `req`, or undefined when it is allowed: at once by the certificate its
 * connection presented, or, with a reviewer, once the apiserver has answered (a promise).
 */
export function refusalFor(req: IncomingMessage, path: string, reviewer?: ApiReviewer): Refusal | undefined | Promise<Refusal | undefined> {
  const identity = identityOf(req.socket);
  const refusal = authorize(identity, path);
  if (!refusal || !reviewer) return refusal;
  // A token only over TLS: over plain HTTP it has already been seen by anyone on the way.
  const token = identity === undefined && (req.socket as Partial<TLSSocket>).encrypted === true ? bearerToken(req) : undefined;
  if (identity === undefined && token === undefined) return refusal;
  return (async (): Promise<Refusal | undefined> => {
    let who = identity;
    if (who === undefined) {
      try {
        who = await reviewer.authenticate(token!);
      } catch (error) {
        return { status: 401, message: `Unauthorized: the token could not be reviewed (${(error as Error).message})` };
      }
      if (who === undefined) return UNAUTHORIZED;
      if (!authorize(who, path)) return undefined;
    }
    try {
      return (await reviewer.authorize(who, accessAttributes(req.method, path))) ? undefined : forbidden(who, path);
    } catch (error) {
      return forbidden(who, path, ` (the access review failed: ${(error as Error).message})`);
    }
  })();
}
