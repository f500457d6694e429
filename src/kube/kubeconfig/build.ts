import { UsageError } from '../../util/errors.js';
import type { ClusterEntry, KubeConfig, KubeconfigCluster, KubeconfigUser } from './types.js';
import { stringifyKubeconfigValue } from './yaml-style.js';

export interface ClusterKubeconfigOptions {
  /** Name of the cluster, user and context, e.g. `kwok-<cluster>`. */
  name: string;
  /** `https://127.0.0.1:<port>`, or http when the secure port is off. */
  server: string;
  caFile?: string;
  /** PEM text of the CA; base64-encoded on output, like Go's `CertificateAuthorityData []byte`. */
  caData?: string;
  certFile?: string;
  keyFile?: string;
  /** PEM text of the client certificate; base64-encoded on output. */
  certData?: string;
  /** PEM text of the client key; base64-encoded on output. */
  keyData?: string;
  insecureSkipTlsVerify?: boolean;
}

const base64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/**
 * The cluster and user entries for one kwok cluster. Combinations kubectl refuses at load time
 * ("specifying a root certificates file with the insecure flag is not allowed", a certificate
 * without its key) are refused here, before anything is written.
 */
export function buildClusterEntry(options: ClusterKubeconfigOptions): ClusterEntry {
  if (options.name.trim() === '') throw new UsageError('the kubeconfig context name is empty');
  let url: URL;
  try {
    url = new URL(options.server);
  } catch {
    throw new UsageError(`the apiserver address ${JSON.stringify(options.server)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new UsageError(`the apiserver address ${options.server} must use http or https`);
  }
  const exclusive = (a: unknown, b: unknown, what: string): void => {
    if (a !== undefined && b !== undefined) throw new UsageError(`give the ${what} either as a file or as data, not both`);
  };
  exclusive(options.caFile, options.caData, 'certificate authority');
  exclusive(options.certFile, options.certData, 'client certificate');
  exclusive(options.keyFile, options.keyData, 'client key');
  if (options.insecureSkipTlsVerify === true && (options.caFile ?? options.caData) !== undefined) {
    throw new UsageError('a certificate authority cannot be combined with insecure-skip-tls-verify');
  }
  const hasCert = (options.certFile ?? options.certData) !== undefined;
  const hasKey = (options.keyFile ?? options.keyData) !== undefined;
  if (hasCert !== hasKey) throw new UsageError('a client certificate and its key must be given together');

  // Key order follows clientcmd's output, so a fresh file looks like kubectl wrote it.
  const cluster: KubeconfigCluster = {
    ...(options.caFile !== undefined ? { 'certificate-authority': options.caFile } : {}),
    ...(options.caData !== undefined ? { 'certificate-authority-data': base64(options.caData) } : {}),
    ...(options.insecureSkipTlsVerify === true ? { 'insecure-skip-tls-verify': true } : {}),
    server: options.server,
  };
  if (!hasCert) return { name: options.name, cluster };

  const user: KubeconfigUser = {
    ...(options.certFile !== undefined ? { 'client-certificate': options.certFile } : {}),
    ...(options.certData !== undefined ? { 'client-certificate-data': base64(options.certData) } : {}),
    ...(options.keyFile !== undefined ? { 'client-key': options.keyFile } : {}),
    ...(options.keyData !== undefined ? { 'client-key-data': base64(options.keyData) } : {}),
  };
  return { name: options.name, cluster, user };
}

/** A whole kubeconfig holding only this cluster, with its context current. */
export function buildClusterKubeconfig(options: ClusterKubeconfigOptions): KubeConfig {
  const entry = buildClusterEntry(options);
  return {
    apiVersion: 'v1',
    clusters: [{ cluster: entry.cluster, name: entry.name }],
    contexts: [{ context: contextOf(entry), name: entry.name }],
    'current-context': entry.name,
    kind: 'Config',
    preferences: {},
    users: entry.user === undefined ? [] : [{ name: entry.name, user: entry.user }],
  };
}

export function contextOf(entry: ClusterEntry): { cluster: string; user?: string } {
  return entry.user === undefined ? { cluster: entry.name } : { cluster: entry.name, user: entry.name };
}

export function renderKubeconfig(config: KubeConfig): string {
  return stringifyKubeconfigValue(config);
}
