import type { webcrypto } from 'node:crypto';
import { caExtensions, issueCertificate, leafExtensions, validityFrom, type Validity } from './certificate.js';
import { DEFAULT_KEY_ALGORITHM, exportPrivateKeyPem, exportPublicKeyPem, generateKeyPair, type KeyAlgorithm } from './keys.js';
import { mergeSans, type SubjectAltNames } from './sans.js';
import { ADMIN_GROUPS, ADMIN_USER, CA_COMMON_NAME, FRONT_PROXY_CA_COMMON_NAME, FRONT_PROXY_CLIENT, MONITORING_GROUP, PROMETHEUS_USER } from '../naming/pki-names.js';
import { generateEtcdPki, type EtcdPki } from './etcd-pki.js';

export { ADMIN_GROUPS, ADMIN_USER, CA_COMMON_NAME, FRONT_PROXY_CA_COMMON_NAME, FRONT_PROXY_CLIENT };

export interface ClusterPkiOptions {
  /** Added to DEFAULT_SANS (host interface IPs, container names, `kubeApiserverCertSANs`). */
  sans?: SubjectAltNames;
  /** DNS names etcd is reached by besides localhost (its container name under container runtimes). */
  etcdDnsSans?: readonly string[];
  /**
   * The cluster runs without RBAC (--no-kube-authorization): Prometheus' certificate also
   * carries system:masters, the one group the controller-manager and scheduler then let read
   * /metrics (see components/delegated-auth.ts).
   */
  withoutRbac?: boolean;
  /** Injected clock, so tests and goldens can pin the validity window. */
  now?: Date;
  keyAlgorithm?: KeyAlgorithm;
}

/** Everything a cluster's `pki/` holds, as PEM text; the caller decides where it goes. */
export interface ClusterPki {
  caCert: string;
  caKey: string;
  /** Serving certificate of every component and client certificate of every client. */
  adminCert: string;
  adminKey: string;
  /** For `--service-account-signing-key-file` and kube-controller-manager's `--service-account-private-key-file`. */
  serviceAccountKey: string;
  /** For `--service-account-key-file` (the verifying side). */
  serviceAccountPub: string;
  frontProxy: FrontProxyPki;
  /** etcd's own CA and certificates (see etcd-pki.ts). */
  etcd: EtcdPki;
  /** Prometheus' client certificate: CN kwok-prometheus, O system:monitoring (metrics only, with RBAC). */
  prometheusCert: string;
  prometheusKey: string;
}

/**
 * The aggregation layer's trust: `--requestheader-client-ca-file` and the certificate the
 * apiserver presents to extension apiservers. A CA of its own (as kubeadm does) rather than the
 * cluster CA: with the cluster CA there, the request-header authenticator verifies every admin
 * request's certificate before the x509 authenticator verifies it again, a noticeable part of the
 * apiserver's CPU under load; against a different CA it gives up at once. The CA key is not
 * kept: nothing re-signs with it.
 */
export interface FrontProxyPki {
  caCert: string;
  clientCert: string;
  clientKey: string;
}

/**
 * A fresh CA and the shared leaf, as kwokctl makes them, plus a dedicated service-account
 * key. The SA key is separate from the admin key (kwokctl reuses the admin key) so that
 * reissuing the admin certificate never invalidates tokens already handed out; with ECDSA
 * the extra key costs about a millisecond.
 */
export async function generateClusterPki(options: ClusterPkiOptions = {}): Promise<ClusterPki> {
  const algorithm = options.keyAlgorithm ?? DEFAULT_KEY_ALGORITHM;
  const sans = mergeSans(options.sans);
  const validity = validityFrom(options.now ?? new Date());

  // Independent, so generated concurrently: RSA generation runs on libuv's thread pool.
  const [caKeys, adminKeys, saKeys, prometheusKeys, frontProxy, etcd] = await Promise.all([
    generateKeyPair(algorithm),
    generateKeyPair(algorithm),
    generateKeyPair(algorithm),
    generateKeyPair(algorithm),
    generateFrontProxyPki({ ...options, keyAlgorithm: algorithm }),
    generateEtcdPki(algorithm, validity, options.etcdDnsSans ?? []),
  ]);

  const ca = await selfSignedCa(CA_COMMON_NAME, caKeys, validity);
  const admin = await issueCertificate({
    subject: { commonName: ADMIN_USER, organizations: ADMIN_GROUPS },
    publicKey: adminKeys.publicKey,
    issuer: { name: ca.subjectName, key: caKeys.privateKey, keyId: ca.keyId },
    validity,
    extensions: leafExtensions({ server: true, client: true }, sans),
  });
  const prometheus = await issueCertificate({
    subject: { commonName: PROMETHEUS_USER, organizations: options.withoutRbac ? [MONITORING_GROUP, ...ADMIN_GROUPS] : [MONITORING_GROUP] },
    publicKey: prometheusKeys.publicKey,
    issuer: { name: ca.subjectName, key: caKeys.privateKey, keyId: ca.keyId },
    validity,
    extensions: leafExtensions({ server: false, client: true }),
  });

  return {
    caCert: ca.toString('pem') + '\n',
    caKey: exportPrivateKeyPem(caKeys.privateKey),
    adminCert: admin.toString('pem') + '\n',
    adminKey: exportPrivateKeyPem(adminKeys.privateKey),
    serviceAccountKey: exportPrivateKeyPem(saKeys.privateKey),
    serviceAccountPub: exportPublicKeyPem(saKeys.publicKey),
    frontProxy,
    etcd,
    prometheusCert: prometheus.toString('pem') + '\n',
    prometheusKey: exportPrivateKeyPem(prometheusKeys.privateKey),
  };
}

function selfSignedCa(commonName: string, keys: webcrypto.CryptoKeyPair, validity: Validity): ReturnType<typeof issueCertificate> {
  return issueCertificate({ subject: { commonName }, publicKey: keys.publicKey, selfSigningKey: keys.privateKey, validity, extensions: caExtensions() });
}

/** A front-proxy CA and its one client certificate. */
async function generateFrontProxyPki(options: Pick<ClusterPkiOptions, 'now' | 'keyAlgorithm'>): Promise<FrontProxyPki> {
  const algorithm = options.keyAlgorithm ?? DEFAULT_KEY_ALGORITHM;
  const validity = validityFrom(options.now ?? new Date());
  const [caKeys, clientKeys] = await Promise.all([generateKeyPair(algorithm), generateKeyPair(algorithm)]);
  const ca = await selfSignedCa(FRONT_PROXY_CA_COMMON_NAME, caKeys, validity);
  const client = await issueCertificate({
    subject: { commonName: FRONT_PROXY_CLIENT },
    publicKey: clientKeys.publicKey,
    issuer: { name: ca.subjectName, key: caKeys.privateKey, keyId: ca.keyId },
    validity,
    extensions: leafExtensions({ server: false, client: true }),
  });
  return { caCert: ca.toString('pem') + '\n', clientCert: client.toString('pem') + '\n', clientKey: exportPrivateKeyPem(clientKeys.privateKey) };
}
