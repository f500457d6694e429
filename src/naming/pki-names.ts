/**
 * The identities in a cluster's PKI. A module of their own so that component descriptions can
 * name them without loading the X.509 library (which costs ~0.15 s of every command's start-up).
 */

/** kwokctl's names: the CA, and the one identity every component and the user's kubectl share. */
export const CA_COMMON_NAME = 'kwok-ca';
export const ADMIN_USER = 'kwok-admin';
export const ADMIN_GROUPS: readonly string[] = Object.freeze(['system:masters']);

/** kubeadm's names for the aggregation layer's own CA and the apiserver's client identity. */
export const FRONT_PROXY_CA_COMMON_NAME = 'front-proxy-ca';
export const FRONT_PROXY_CLIENT = 'front-proxy-client';

/**
 * etcd's own trust, kubeadm's names: a CA of its own (`etcd-ca`), so that no certificate the
 * cluster CA issues (the admin's, or one `get kubeconfig --user` signs) opens etcd. Only the
 * apiserver and the host's etcdctl hold an etcd client certificate.
 */
export const ETCD_CA_COMMON_NAME = 'etcd-ca';
export const ETCD_SERVER = 'kube-etcd';
export const ETCD_PEER = 'kube-etcd-peer';
export const ETCD_HEALTHCHECK_CLIENT = 'kube-etcd-healthcheck-client';
export const APISERVER_ETCD_CLIENT = 'kube-apiserver-etcd-client';

/**
 * Prometheus' identity: the `system:monitoring` group, which Kubernetes' bootstrap RBAC allows
 * `get` on /metrics, /livez, /readyz and /healthz and nothing else.
 */
export const PROMETHEUS_USER = 'kwok-prometheus';
export const MONITORING_GROUP = 'system:monitoring';
