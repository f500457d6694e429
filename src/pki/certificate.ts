/**
 * Issues one X.509 certificate. Both the self-signed CA and the leaves go through here so the
 * identifier extensions and validity rules are the same for every certificate.
 */
import type { webcrypto } from 'node:crypto';
import { signatureParams } from './keys.js';
import { nodeCrypto, x509 } from './x509.js';

/** kwokctl's `CertificateValidity`: 100 × 365 days, counted from now (not from notBefore). */
export const CERTIFICATE_VALIDITY_MS = 100 * 365 * 24 * 60 * 60 * 1000;
/** Backdating absorbs clock skew between the host and containers or VMs. */
export const CERTIFICATE_BACKDATE_MS = 24 * 60 * 60 * 1000;

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/**
 * X.509 times have one-second precision. The library encodes years up to 2049 as UTCTime and
 * later ones as GeneralizedTime (RFC 5280 §4.1.2.5), so a 100-year notAfter is valid DER.
 */
export function validityFrom(now: Date): Validity {
  return {
    notBefore: new Date(now.getTime() - CERTIFICATE_BACKDATE_MS),
    notAfter: new Date(now.getTime() + CERTIFICATE_VALIDITY_MS),
  };
}

/** Distinguished name in kubernetes' terms: the user is the CN, each group one O. */
export interface Subject {
  commonName: string;
  organizations?: readonly string[];
}

/**
 * One RDN per attribute, O before CN, the order Go's pkix.Name produces; the apiserver reads
 * every O as a group whatever the order.
 */
export function subjectName(subject: Subject): x509.JsonName {
  return [...(subject.organizations ?? []).map((o) => ({ O: [o] })), { CN: [subject.commonName] }];
}

export interface Issuer {
  /** The CA's subject, reused byte-for-byte as the issuer so chain building matches it. */
  name: x509.Name | x509.JsonName;
  key: webcrypto.CryptoKey;
  /** Key identifier of the CA (its SubjectKeyIdentifier), written as AuthorityKeyIdentifier. */
  keyId: string;
}

export interface IssueRequest {
  subject: Subject;
  publicKey: webcrypto.CryptoKey;
  validity: Validity;
  extensions: x509.Extension[];
  /** Omitted for a self-signed certificate. */
  issuer?: Issuer;
  /** Private key of a self-signed certificate. */
  selfSigningKey?: webcrypto.CryptoKey;
}

export async function issueCertificate(request: IssueRequest): Promise<x509.X509Certificate> {
  const subjectKeyId = await x509.SubjectKeyIdentifierExtension.create(request.publicKey, false, nodeCrypto);
  const signingKey = request.issuer?.key ?? request.selfSigningKey;
  if (signingKey === undefined) throw new TypeError('issueCertificate needs an issuer or a self-signing key');
  // The AKI lets OpenSSL (with -x509_strict) and Go pick the right CA when several share a name.
  const authorityKeyId = new x509.AuthorityKeyIdentifierExtension(request.issuer?.keyId ?? subjectKeyId.keyId);
  const name = subjectName(request.subject);
  return x509.X509CertificateGenerator.create(
    {
      subject: name,
      issuer: request.issuer?.name ?? name,
      notBefore: request.validity.notBefore,
      notAfter: request.validity.notAfter,
      publicKey: request.publicKey,
      signingKey,
      signingAlgorithm: signatureParams(signingKey),
      extensions: [...request.extensions, subjectKeyId, authorityKeyId],
    },
    nodeCrypto,
  );
}

/** Extensions of the leaf every component shares: it both serves and authenticates. */
export function leafExtensions(usages: { server: boolean; client: boolean }, sans?: { dns: string[]; ips: string[] }): x509.Extension[] {
  const eku: string[] = [];
  if (usages.server) eku.push(x509.ExtendedKeyUsage.serverAuth);
  if (usages.client) eku.push(x509.ExtendedKeyUsage.clientAuth);
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    // keyEncipherment is meaningless for ECDSA but harmless, and kwokctl sets it for RSA key transport.
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
    new x509.ExtendedKeyUsageExtension(eku, false),
  ];
  if (sans !== undefined && sans.dns.length + sans.ips.length > 0) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension([
        ...sans.dns.map((value) => ({ type: 'dns' as const, value })),
        ...sans.ips.map((value) => ({ type: 'ip' as const, value })),
      ]),
    );
  }
  return extensions;
}

export function caExtensions(): x509.Extension[] {
  return [
    new x509.BasicConstraintsExtension(true, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
  ];
}

/**
 * The CA's own key identifier. A CA made by kwokctl (Go) carries one; computing it from the
 * key is the fallback for CAs without the extension.
 */
export async function keyIdentifierOf(cert: x509.X509Certificate): Promise<string> {
  const ski = cert.getExtension(x509.SubjectKeyIdentifierExtension);
  if (ski !== null) return ski.keyId;
  return (await x509.SubjectKeyIdentifierExtension.create(cert.publicKey, false, nodeCrypto)).keyId;
}
