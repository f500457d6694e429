/**
 * The client certificate chain our TLS connections present.
 *
 * Given only a leaf certificate, OpenSSL (and so Node) builds a chain from the trusted CAs and
 * sends leaf + CA. kube-apiserver then puts the CA among the intermediates and its two x509
 * authenticators (request-header and client-cert) verify the CA's signature over and over: three
 * ECDSA verifications per request instead of one, which was a third of the apiserver's CPU under
 * a stream of small requests (Go clients such as kubectl send the leaf alone). OpenSSL skips that
 * chain building when the certificate comes with an explicit chain, so a lone leaf is given the
 * leaf itself as its chain: it can never be a parent of itself (its issuer is not its subject),
 * so the server never checks a signature with it, and the CA stays out of the handshake.
 */
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\r?\n?/g;

export function explicitClientChain(cert: Buffer): Buffer {
  const text = cert.toString('utf8');
  const blocks = text.match(PEM_CERTIFICATE) ?? [];
  // Already a chain (the user's choice), or not PEM: leave it as it is.
  if (blocks.length !== 1) return cert;
  const leaf = blocks[0]!.endsWith('\n') ? blocks[0]! : `${blocks[0]!}\n`;
  return Buffer.from(leaf + leaf, 'utf8');
}
