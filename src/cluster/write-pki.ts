/**
 * Writes a fresh cluster PKI (src/pki makes it) into the cluster's `pki/`: certificates 0644,
 * keys 0600, the directories 0700. Dry-run shows one note instead: the keys are not printed.
 */
import { isIP } from 'node:net';
import type { Executor } from '../exec/executor.js';
import { generateClusterPki } from '../pki/index.js';
import type { ClusterPaths } from '../naming/naming.js';
import { span } from '../util/timeline.js';

export interface WritePkiOptions {
  /**
   * Extra names of the apiserver's (and the controller's) serving certificate: container names
   * and options.kubeApiserverCertSANs; IP addresses among them go in as IP SANs.
   */
  apiserverSans: readonly string[];
  /** Extra DNS names of etcd's serving and peer certificates (its container name). */
  etcdDnsSans: readonly string[];
  /** The apiserver runs with RBAC (see ClusterPkiOptions.withoutRbac). */
  rbac: boolean;
  /**
   * Keep etcd's CA key (pki/etcd/ca.key): kind's kubeadm is given the CA and makes its etcd's
   * certificates with it, so the host's etcd client certificate is good for kind's etcd too.
   * Elsewhere nothing signs with it, so it is not written.
   */
  etcdCaKey?: boolean;
}

const CERT = { mode: 0o644 };
const KEY = { mode: 0o600 };

export async function writePki(executor: Executor, paths: ClusterPaths, options: WritePkiOptions): Promise<void> {
  if (executor.dryRun) {
    await executor.note(`Generate PKI to ${paths.pki}`);
    return;
  }
  const pki = await span('generate PKI', () => generateClusterPki({
    ...(options.apiserverSans.length > 0
      ? { sans: { dns: options.apiserverSans.filter((s) => isIP(s) === 0), ips: options.apiserverSans.filter((s) => isIP(s) !== 0) } }
      : {}),
    etcdDnsSans: options.etcdDnsSans,
    withoutRbac: !options.rbac,
  }));
  await executor.mkdirp(paths.pki, { mode: 0o700 });
  await executor.mkdirp(paths.etcdPki, { mode: 0o700 });
  const files: Array<[string, string, { mode: number }]> = [
    [paths.caCert, pki.caCert, CERT],
    [paths.caKey, pki.caKey, KEY],
    [paths.adminCert, pki.adminCert, CERT],
    [paths.adminKey, pki.adminKey, KEY],
    [paths.serviceAccountKey, pki.serviceAccountKey, KEY],
    [paths.serviceAccountPub, pki.serviceAccountPub, CERT],
    [paths.frontProxyCaCert, pki.frontProxy.caCert, CERT],
    [paths.frontProxyClientCert, pki.frontProxy.clientCert, CERT],
    [paths.frontProxyClientKey, pki.frontProxy.clientKey, KEY],
    [paths.prometheusCert, pki.prometheusCert, CERT],
    [paths.prometheusKey, pki.prometheusKey, KEY],
    [paths.etcdCaCert, pki.etcd.caCert, CERT],
    ...(options.etcdCaKey ? [[paths.etcdCaKey, pki.etcd.caKey, KEY] as [string, string, { mode: number }]] : []),
    [paths.etcdServerCert, pki.etcd.serverCert, CERT],
    [paths.etcdServerKey, pki.etcd.serverKey, KEY],
    [paths.etcdPeerCert, pki.etcd.peerCert, CERT],
    [paths.etcdPeerKey, pki.etcd.peerKey, KEY],
    [paths.etcdClientCert, pki.etcd.healthcheckClientCert, CERT],
    [paths.etcdClientKey, pki.etcd.healthcheckClientKey, KEY],
    [paths.apiserverEtcdClientCert, pki.etcd.apiserverClientCert, CERT],
    [paths.apiserverEtcdClientKey, pki.etcd.apiserverClientKey, KEY],
  ];
  // Independent files: written at once (each is written aside and renamed into place).
  await span('write PKI files', () => Promise.all(files.map(([path, content, mode]) => executor.writeFile(path, content, mode))));
}
