import { caExtensions, issueCertificate, keyIdentifierOf, leafExtensions, validityFrom } from './certificate.js';
import { DEFAULT_KEY_ALGORITHM, exportPrivateKeyPem, exportPublicKeyPem, generateKeyPair, type KeyAlgorithm } from './keys.js';
import { mergeSans, type SubjectAltNames } from './sans.js';

/** kwokctl's names: the CA, and the one identity every component and the user's kubectl share. */
export const CA_COMMON_NAME = 'kwok-ca';
export const ADMIN_USER = 'kwok-admin';
export const ADMIN_GROUPS: readonly string[] = Object.freeze(['system:masters']);

export interface ClusterPkiOptions {
  /** Added to DEFAULT_SANS (host interface IPs, container names, `kubeApiserverCertSANs`). */
  sans?: SubjectAltNames;
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
  const [caKeys, adminKeys, saKeys] = await Promise.all([
    generateKeyPair(algorithm),
    generateKeyPair(algorithm),
    generateKeyPair(algorithm),
  ]);

  const ca = await issueCertificate({
    subject: { commonName: CA_COMMON_NAME },
    publicKey: caKeys.publicKey,
    selfSigningKey: caKeys.privateKey,
    validity,
    extensions: caExtensions(),
  });
  const caKeyId = await keyIdentifierOf(ca);
  const admin = await issueCertificate({
    subject: { commonName: ADMIN_USER, organizations: ADMIN_GROUPS },
    publicKey: adminKeys.publicKey,
    issuer: { name: ca.subjectName, key: caKeys.privateKey, keyId: caKeyId },
    validity,
    extensions: leafExtensions({ server: true, client: true }, sans),
  });

  return {
    caCert: ca.toString('pem') + '\n',
    caKey: exportPrivateKeyPem(caKeys.privateKey),
    adminCert: admin.toString('pem') + '\n',
    adminKey: exportPrivateKeyPem(adminKeys.privateKey),
    serviceAccountKey: exportPrivateKeyPem(saKeys.privateKey),
    serviceAccountPub: exportPublicKeyPem(saKeys.publicKey),
  };
}
