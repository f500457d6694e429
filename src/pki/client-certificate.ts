import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { OperationError, UsageError } from '../util/errors.js';
import { issueCertificate, leafExtensions, parseCaCertificate as readCa, validityFrom, type ParsedCa } from './certificate.js';
import { fromPem } from './der.js';
import { DEFAULT_KEY_ALGORITHM, exportPrivateKeyPem, generateKeyPair, importSigningKey, type KeyAlgorithm } from './keys.js';

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
    issuer: { name: caCert.subjectName, key: caKey, keyId: caCert.keyId },
    validity: validityFrom(options.now ?? new Date()),
    extensions: leafExtensions({ server: false, client: true }),
  });
  return { cert: cert.toString('pem') + '\n', key: exportPrivateKeyPem(keys.privateKey) };
}

/**
 * Rejects a certificate that is no CA or does not belong to the key: signing anyway would
 * produce a client certificate the apiserver silently refuses.
 */
function parseCaCertificate(ca: CertificateAuthorityPem): ParsedCa {
  const hint = 'check pki/ca.crt and pki/ca.key in the cluster workdir, or delete and recreate the cluster';
  let cert: ParsedCa;
  let subject: string;
  try {
    // node:crypto checks it is a certificate at all; the DER reader takes what issuing needs.
    subject = new X509Certificate(ca.cert).subject.replaceAll('\n', ', ');
    cert = readCa(fromPem('CERTIFICATE', ca.cert));
  } catch (cause) {
    throw new OperationError('the cluster CA certificate is not a readable PEM certificate', { cause, hint });
  }
  if (!cert.isCa) {
    throw new OperationError(`the certificate ${subject} is not a CA`, { hint });
  }
  let keyMatches: boolean;
  try {
    const fromKey = createPublicKey(createPrivateKey(ca.key)).export({ type: 'spki', format: 'der' });
    keyMatches = cert.spki.equals(fromKey);
  } catch (cause) {
    throw new OperationError('the cluster CA key is not a readable PEM private key', { cause, hint });
  }
  if (!keyMatches) throw new OperationError('the cluster CA key does not belong to the CA certificate', { hint });
  return cert;
}
