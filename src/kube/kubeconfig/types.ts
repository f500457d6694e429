/**
 * The subset of kubeconfig (clientcmd v1) that kwokts writes. Keys are spelled as in the file
 * so an object serialises without a mapping layer. Files we edit may hold far more; those
 * parts are never modelled, only preserved.
 */
export interface KubeconfigCluster {
  server: string;
  'certificate-authority'?: string;
  /** Base64 of the PEM bundle, as in the file. */
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
}

export interface KubeconfigUser {
  'client-certificate'?: string;
  'client-key'?: string;
  'client-certificate-data'?: string;
  'client-key-data'?: string;
}

export interface KubeconfigContext {
  cluster: string;
  /** Absent when the apiserver serves plain http (kwokctl's secure-port off). */
  user?: string;
}

export interface NamedCluster {
  cluster: KubeconfigCluster;
  name: string;
}

export interface NamedContext {
  context: KubeconfigContext;
  name: string;
}

export interface NamedUser {
  name: string;
  user: KubeconfigUser;
}

export interface KubeConfig {
  apiVersion: 'v1';
  clusters: NamedCluster[];
  contexts: NamedContext[];
  'current-context': string;
  kind: 'Config';
  preferences: Record<string, never>;
  users: NamedUser[];
}

/** One cluster's cluster, user and context, all named `name` (kwokctl's `kwok-<cluster>`). */
export interface ClusterEntry {
  name: string;
  cluster: KubeconfigCluster;
  /** Omitted for an insecure (http) apiserver: the context then has no user. */
  user?: KubeconfigUser;
}
