import { leafExtensions, issueCertificate, validityFrom } from './certificate.js';
import { DEFAULT_KEY_ALGORITHM, exportPrivateKeyPem, generateKeyPair } from './keys.js';
import { mergeSans, type SubjectAltNames } from './sans.js';

/**
 * A serving certificate that signs itself, made in memory, for a server given no certificate: the
 * kwok controller run without --tls-cert-file (in an existing cluster, say) serves HTTPS with one,
 * where Go kwok serves with Go's fixed, published test certificate. Nobody can verify it, but its
 * key is this process's alone, and HTTPS is what client certificates and bearer tokens need.
 */
export async function selfSignedServingCertificate(names: SubjectAltNames, now = new Date()): Promise<{ cert: string; key: string }> {
  const keys = await generateKeyPair(DEFAULT_KEY_ALGORITHM);
  const cert = await issueCertificate({
    subject: { commonName: 'kwok-controller' },
    publicKey: keys.publicKey,
    selfSigningKey: keys.privateKey,
    validity: validityFrom(now),
    extensions: leafExtensions({ server: true, client: false }, mergeSans(names)),
  });
  return { cert: cert.toString('pem') + '\n', key: exportPrivateKeyPem(keys.privateKey) };
}
