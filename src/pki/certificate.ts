/**
 * Issues one X.509 certificate. Both the self-signed CA and the leaves go through here so the
 * identifier extensions and validity rules are the same for every certificate. Encoded with the
 * DER helpers in der.ts and signed with node:crypto.
 */
import { createHash, KeyObject, randomBytes, sign, type webcrypto } from 'node:crypto';
import { bitString, boolean, children, directoryString, explicit, generalName, namedBits, nullValue, octetString, oid, readElement, readOid, sequence, set, time, tlv, toPem, unsignedInteger } from './der.js';

/** kwokctl's `CertificateValidity`: 100 × 365 days, counted from now (not from notBefore). */
export const CERTIFICATE_VALIDITY_MS = 100 * 365 * 24 * 60 * 60 * 1000;
/** Backdating absorbs clock skew between the host and containers or VMs. */
export const CERTIFICATE_BACKDATE_MS = 24 * 60 * 60 * 1000;

export interface Validity {
  notBefore: Date;
  notAfter: Date;
}

/**
 * X.509 times have one-second precision. der.ts encodes years up to 2049 as UTCTime and
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

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
} as const;

/**
 * The DER Name: one RDN per attribute, O before CN, the order Go's pkix.Name produces; the
 * apiserver reads every O as a group whatever the order.
 */
export function subjectName(subject: Subject): Buffer {
  const rdn = (type: string, value: string): Buffer => set(sequence(oid(type), directoryString(value)));
  return sequence(...(subject.organizations ?? []).map((o) => rdn(OID.organization, o)), rdn(OID.commonName, subject.commonName));
}

/** One certificate extension: its OID, criticality and the DER of its value. */
export interface Extension {
  oid: string;
  critical: boolean;
  value: Buffer;
}

export interface Issuer {
  /** The CA's subject (DER), reused byte-for-byte as the issuer so chain building matches it. */
  name: Buffer;
  key: webcrypto.CryptoKey;
  /** Key identifier of the CA (its SubjectKeyIdentifier, hex), written as AuthorityKeyIdentifier. */
  keyId: string;
}

export interface IssueRequest {
  subject: Subject;
  publicKey: webcrypto.CryptoKey;
  validity: Validity;
  extensions: Extension[];
  /** Omitted for a self-signed certificate. */
  issuer?: Issuer;
  /** Private key of a self-signed certificate. */
  selfSigningKey?: webcrypto.CryptoKey;
}

/** An issued certificate: its DER, and what a certificate it issues needs from it. */
export class Certificate {
  constructor(
    readonly der: Buffer,
    /** The subject Name (DER), the issuer of what this certificate signs. */
    readonly subjectName: Buffer,
    /** Its SubjectKeyIdentifier, hex. */
    readonly keyId: string,
  ) {}

  /** PEM without a final newline. */
  toString(_format: 'pem' = 'pem'): string {
    return toPem('CERTIFICATE', this.der);
  }
}

export async function issueCertificate(request: IssueRequest): Promise<Certificate> {
  const signingKey = request.issuer?.key ?? request.selfSigningKey;
  if (signingKey === undefined) throw new TypeError('issueCertificate needs an issuer or a self-signing key');
  const spki = KeyObject.from(request.publicKey).export({ type: 'spki', format: 'der' });
  const subjectKeyId = keyIdentifierOfSpki(spki);
  const name = subjectName(request.subject);
  const algorithm = signatureAlgorithm(signingKey);
  // The AKI lets OpenSSL (with -x509_strict) and Go pick the right CA when several share a name.
  const extensions = [
    ...request.extensions,
    { oid: OID.subjectKeyIdentifier, critical: false, value: octetString(Buffer.from(subjectKeyId, 'hex')) },
    { oid: OID.authorityKeyIdentifier, critical: false, value: sequence(tlv(0x80, Buffer.from(request.issuer?.keyId ?? subjectKeyId, 'hex'))) },
  ];
  // 16 random bytes, positive (RFC 5280 allows up to 20 octets).
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01;
  const tbs = sequence(
    explicit(0, unsignedInteger(Buffer.from([2]))),
    unsignedInteger(serial),
    algorithm.id,
    request.issuer?.name ?? name,
    sequence(time(request.validity.notBefore), time(request.validity.notAfter)),
    name,
    spki,
    explicit(3, sequence(...extensions.map((e) => sequence(oid(e.oid), ...(e.critical ? [boolean(true)] : []), octetString(e.value))))),
  );
  // ECDSA signatures come out DER-encoded (ECDSA-Sig-Value), as X.509 wants them.
  const signature = sign(algorithm.hash, tbs, KeyObject.from(signingKey));
  return new Certificate(sequence(tbs, algorithm.id, bitString(signature)), name, subjectKeyId);
}

function signatureAlgorithm(key: webcrypto.CryptoKey): { id: Buffer; hash: string } {
  if (key.algorithm.name === 'ECDSA') {
    const p384 = (key.algorithm as webcrypto.EcKeyAlgorithm).namedCurve === 'P-384';
    return { id: sequence(oid(p384 ? '1.2.840.10045.4.3.3' : '1.2.840.10045.4.3.2')), hash: p384 ? 'sha384' : 'sha256' };
  }
  // sha256WithRSAEncryption, with its NULL parameters.
  return { id: sequence(oid('1.2.840.113549.1.1.11'), nullValue()), hash: 'sha256' };
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdentifierOfSpki(spki: Buffer): string {
  const [, key] = children(readElement(spki));
  if (!key) throw new Error('not a SubjectPublicKeyInfo');
  return createHash('sha1').update(key.content.subarray(1)).digest('hex');
}

/** Extensions of the leaf every component shares: it both serves and authenticates. */
export function leafExtensions(usages: { server: boolean; client: boolean }, sans?: { dns: string[]; ips: string[] }): Extension[] {
  const eku: string[] = [];
  if (usages.server) eku.push(OID.serverAuth);
  if (usages.client) eku.push(OID.clientAuth);
  const extensions: Extension[] = [
    { oid: OID.basicConstraints, critical: true, value: sequence() },
    // keyEncipherment (bit 2) is meaningless for ECDSA but harmless, and kwokctl sets it for RSA key transport.
    { oid: OID.keyUsage, critical: true, value: namedBits([KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment]) },
    { oid: OID.extKeyUsage, critical: false, value: sequence(...eku.map((u) => oid(u))) },
  ];
  if (sans !== undefined && sans.dns.length + sans.ips.length > 0) {
    extensions.push({ oid: OID.subjectAltName, critical: false, value: sequence(...sans.dns.map((d) => generalName('dns', d)), ...sans.ips.map((ip) => generalName('ip', ip))) });
  }
  return extensions;
}

const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 } as const;

export function caExtensions(): Extension[] {
  return [
    { oid: OID.basicConstraints, critical: true, value: sequence(boolean(true)) },
    { oid: OID.keyUsage, critical: true, value: namedBits([KEY_USAGE.keyCertSign, KEY_USAGE.cRLSign]) },
  ];
}

/** What issuing with an existing CA certificate (ours or kwokctl's) needs from it. */
export interface ParsedCa {
  subjectName: Buffer;
  keyId: string;
  isCa: boolean;
  spki: Buffer;
}

/**
 * Reads a CA certificate's subject, key identifier and CA flag. A CA made by kwokctl (Go)
 * carries a SubjectKeyIdentifier; computing it from the key is the fallback for CAs without it.
 */
export function parseCaCertificate(der: Buffer): ParsedCa {
  const [tbs] = children(readElement(der));
  if (!tbs) throw new Error('not a certificate');
  const fields = children(tbs);
  // An explicit [0] version comes first in v2 and v3 certificates.
  const at = fields[0]?.tag === 0xa0 ? 1 : 0;
  const subject = fields[at + 4];
  const spki = fields[at + 5];
  if (!subject || !spki) throw new Error('not a certificate');
  let keyId: string | undefined;
  let isCa = false;
  const extensionsField = fields.find((f) => f.tag === 0xa3);
  const list = extensionsField ? children(extensionsField)[0] : undefined;
  for (const extension of list ? children(list) : []) {
    const parts = children(extension);
    const id = readOid(parts[0]!.content);
    const value = parts.at(-1)!.content;
    if (id === OID.subjectKeyIdentifier) keyId = readElement(value).content.toString('hex');
    if (id === OID.basicConstraints) {
      const first = children(readElement(value))[0];
      isCa = first?.tag === 0x01 && first.content[0] !== 0;
    }
  }
  return { subjectName: subject.raw, keyId: keyId ?? keyIdentifierOfSpki(spki.raw), isCa, spki: spki.raw };
}
