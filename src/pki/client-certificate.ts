import { createPrivateKey, createPublicKey } from 'node:crypto';
import { OperationError, UsageError } from '../util/errors.js';
import { issueCertificate, keyIdentifierOf, leafExtensions, validityFrom } from './certificate.js';
import { DEFAULT_KEY_ALGORITHM, exportPrivateKeyPem, generateKeyPair, importSigningKey, type KeyAlgorithm } from './keys.js';
import { x509 } from './x509.js';

/** A CA as read from a cluster's `pki/ca.crt` and `pki/ca.key` (ours or kwokctl's RSA one). */
export interface CertificateAuthorityPem {
  cert: string;
  key: string;
}

export interface ClientIdentity {
  /** Becomes the Kubernetes user name (CN). */
  user: string;
  /** Become the Kubernetes groups (one O each). */
  groups: readonly string[];
}

export interface SignClientCertificateOptions {
  now?: Date;
  keyAlgorithm?: KeyAlgorithm;
}

export interface CertificateAndKey {
  cert: string;
  key: string;
}

/**
 * A client certificate for `get kubeconfig --user/--group`: same validity rules as kwokctl,
 * clientAuth only and no SANs, since it never serves.
 */
export async function signClientCertificate(
  ca: CertificateAuthorityPem,
  identity: ClientIdentity,
  options: SignClientCertificateOptions = {},
): Promise<CertificateAndKey> {
  if (identity.user.trim() === '') {
    throw new UsageError('the user name for a client certificate is empty', { hint: 'pass --user <name>' });
  }
  const caCert = parseCaCertificate(ca);
  const [caKey, keys] = await Promise.all([
    importSigningKey(ca.key),
    generateKeyPair(options.keyAlgorithm ?? DEFAULT_KEY_ALGORITHM),
  ]);
  const cert = await issueCertificate({
    subject: { commonName: identity.user, organizations: identity.groups },
    publicKey: keys.publicKey,
    issuer: { name: caCert.subjectName, key: caKey, keyId: await keyIdentifierOf(caCert) },
    validity: validityFrom(options.now ?? new Date()),
    extensions: leafExtensions({ server: false, client: true }),
  });
  return { cert: cert.toString('pem') + '\n', key: exportPrivateKeyPem(keys.privateKey) };
}

/**
 * Rejects a certificate that is no CA or does not belong to the key: signing anyway would
 * produce a client certificate the apiserver silently refuses.
 */
function parseCaCertificate(ca: CertificateAuthorityPem): x509.X509Certificate {
  const hint = 'check pki/ca.crt and pki/ca.key in the cluster workdir, or delete and recreate the cluster';
  let cert: x509.X509Certificate;
  try {
    cert = new x509.X509Certificate(ca.cert);
  } catch (cause) {
    throw new OperationError('the cluster CA certificate is not a readable PEM certificate', { cause, hint });
  }
  const constraints = cert.getExtension(x509.BasicConstraintsExtension);
  if (constraints === null || !constraints.ca) {
    throw new OperationError(`the certificate ${cert.subject} is not a CA`, { hint });
  }
  let keyMatches: boolean;
  try {
    const fromKey = createPublicKey(createPrivateKey(ca.key)).export({ type: 'spki', format: 'der' });
    keyMatches = Buffer.from(cert.publicKey.rawData).equals(fromKey);
  } catch (cause) {
    throw new OperationError('the cluster CA key is not a readable PEM private key', { cause, hint });
  }
  if (!keyMatches) throw new OperationError('the cluster CA key does not belong to the CA certificate', { hint });
  return cert;
}
