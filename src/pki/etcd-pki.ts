/**
 * etcd's certificates, as kubeadm makes them: a CA of its own, a serving and a peer certificate
 * (both also client certificates, as kubeadm's are), and two client certificates: the
 * apiserver's and the one the host's tools (etcdctl passthrough, snapshots) use. The CA key is
 * returned but written only where something signs with it: kind's kubeadm, which makes its etcd's
 * certificates from this CA so that the host's client certificate is good for it (see writePki).
 */
import type { webcrypto } from 'node:crypto';
import { caExtensions, issueCertificate, type Certificate, leafExtensions, type Validity } from './certificate.js';
import { exportPrivateKeyPem, generateKeyPair, type KeyAlgorithm } from './keys.js';
import { APISERVER_ETCD_CLIENT, ETCD_CA_COMMON_NAME, ETCD_HEALTHCHECK_CLIENT, ETCD_PEER, ETCD_SERVER } from '../naming/pki-names.js';

export interface EtcdPki {
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  peerCert: string;
  peerKey: string;
  /** The host's etcd client: readiness, `kwokts etcdctl`, `snapshot save`. */
  healthcheckClientCert: string;
  healthcheckClientKey: string;
  apiserverClientCert: string;
  apiserverClientKey: string;
}

/**
 * Names etcd is reached by: loopback (host processes, published ports) and, in containers, its
 * container name. Not the Kubernetes service names: nothing in a cluster dials etcd by those.
 */
export function etcdSans(extraDns: readonly string[]): { dns: string[]; ips: string[] } {
  return { dns: [...new Set(['localhost', ...extraDns])], ips: ['127.0.0.1', '::1'] };
}

export async function generateEtcdPki(algorithm: KeyAlgorithm, validity: Validity, extraDns: readonly string[]): Promise<EtcdPki> {
  const [caKeys, server, peer, healthcheck, apiserver] = await Promise.all([0, 1, 2, 3, 4].map(() => generateKeyPair(algorithm)));
  const ca = await issueCertificate({
    subject: { commonName: ETCD_CA_COMMON_NAME },
    publicKey: caKeys!.publicKey,
    selfSigningKey: caKeys!.privateKey,
    validity,
    extensions: caExtensions(),
  });
  const issuer = { name: ca.subjectName, key: caKeys!.privateKey, keyId: ca.keyId };
  const sans = etcdSans(extraDns);
  const leaf = async (commonName: string, keys: webcrypto.CryptoKeyPair, serving: boolean): Promise<Certificate> =>
    issueCertificate({
      subject: { commonName },
      publicKey: keys.publicKey,
      issuer,
      validity,
      extensions: leafExtensions({ server: serving, client: true }, serving ? sans : undefined),
    });
  const [serverCert, peerCert, healthcheckCert, apiserverCert] = await Promise.all([
    leaf(ETCD_SERVER, server!, true),
    leaf(ETCD_PEER, peer!, true),
    leaf(ETCD_HEALTHCHECK_CLIENT, healthcheck!, false),
    leaf(APISERVER_ETCD_CLIENT, apiserver!, false),
  ]);
  const pem = (cert: Certificate): string => cert.toString('pem') + '\n';
  return {
    caCert: pem(ca),
    caKey: exportPrivateKeyPem(caKeys!.privateKey),
    serverCert: pem(serverCert),
    serverKey: exportPrivateKeyPem(server!.privateKey),
    peerCert: pem(peerCert),
    peerKey: exportPrivateKeyPem(peer!.privateKey),
    healthcheckClientCert: pem(healthcheckCert),
    healthcheckClientKey: exportPrivateKeyPem(healthcheck!.privateKey),
    apiserverClientCert: pem(apiserverCert),
    apiserverClientKey: exportPrivateKeyPem(apiserver!.privateKey),
  };
}
