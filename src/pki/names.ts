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
