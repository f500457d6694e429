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
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

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

/** Whether `identity` may request `path`; undefined when it may. */
export function authorize(identity: ClientIdentity | undefined, path: string): Refusal | undefined {
  if (HEALTH.has(path)) return undefined;
  if (!identity) return { status: 401, message: 'Unauthorized: this endpoint takes HTTPS with a client certificate of the cluster CA' };
  if (identity.groups.includes(MASTERS_GROUP) || identity.user === APISERVER_KUBELET_CLIENT) return undefined;
  if (identity.groups.includes(MONITORING_GROUP) && isMetricsPath(path)) return undefined;
  return { status: 403, message: `Forbidden: user "${identity.user}" may not use ${path}` };
}

/** The refusal for `req`, by the certificate its connection presented; undefined when allowed. */
export function refusalFor(req: IncomingMessage, path: string): Refusal | undefined {
  return authorize(identityOf(req.socket), path);
}
