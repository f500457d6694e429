/**
 * Key pairs for the cluster PKI. Private keys are exported in the type-specific encodings
 * (SEC1 `EC PRIVATE KEY`, PKCS#1 `RSA PRIVATE KEY`), which is what kwokctl and Kubernetes'
 * keyutil write. PKCS#8 would be fine for TLS, but kube-apiserver's
 * `--service-account-key-file` parser (keyutil.ParsePublicKeysPEM) reads EC private keys only
 * as SEC1, so a PKCS#8 EC key there fails with "data does not contain any valid RSA or ECDSA
 * public keys".
 */
import { createPrivateKey, KeyObject, webcrypto } from 'node:crypto';
import { OperationError } from '../util/errors.js';

/**
 * Node's WebCrypto, named here so the result does not depend on a process-wide provider that
 * other code could replace.
 */
const nodeCrypto: webcrypto.Crypto = webcrypto;

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;

/**
 * ECDSA P-256 is the default: every component (apiserver serving and SA signing, etcd,
 * kubectl, Prometheus) accepts it, and its keys are made in a fraction of RSA-2048's time, which
 * a create otherwise waits for.
 */
export type KeyAlgorithm = 'ecdsa-p256' | 'rsa-2048';

export const DEFAULT_KEY_ALGORITHM: KeyAlgorithm = 'ecdsa-p256';

type SigningAlgorithm = (webcrypto.EcKeyGenParams & webcrypto.EcdsaParams) | webcrypto.RsaHashedKeyGenParams;

function signingAlgorithm(algorithm: KeyAlgorithm): SigningAlgorithm {
  switch (algorithm) {
    case 'ecdsa-p256':
      return { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
    case 'rsa-2048':
      return {
        name: 'RSASSA-PKCS1-v1_5',
        modulusLength: 2048,
        publicExponent: new Uint8Array([1, 0, 1]),
        hash: 'SHA-256',
      };
  }
}

export async function generateKeyPair(algorithm: KeyAlgorithm): Promise<CryptoKeyPair> {
  // Extractable, because the private key leaves the process as PEM.
  return nodeCrypto.subtle.generateKey(signingAlgorithm(algorithm), true, ['sign', 'verify']);
}

function toKeyObject(key: CryptoKey): KeyObject {
  return KeyObject.from(key);
}

export function exportPrivateKeyPem(key: CryptoKey): string {
  const object = toKeyObject(key);
  const type = object.asymmetricKeyType === 'ec' ? 'sec1' : 'pkcs1';
  return object.export({ type, format: 'pem' }).toString();
}

/** SubjectPublicKeyInfo (`PUBLIC KEY`), accepted by `--service-account-key-file` for RSA and ECDSA. */
export function exportPublicKeyPem(key: CryptoKey): string {
  return toKeyObject(key).export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * Imports an existing CA key (ours, or an RSA key written by kwokctl) for signing. Accepts
 * every PEM encoding Node understands: SEC1, PKCS#1 and PKCS#8.
 */
export async function importSigningKey(pem: string): Promise<CryptoKey> {
  let object: KeyObject;
  try {
    object = createPrivateKey(pem);
  } catch (cause) {
    throw new OperationError('the cluster CA key is not a readable PEM private key', {
      cause,
      hint: 'check pki/ca.key in the cluster workdir, or delete and recreate the cluster',
    });
  }
  const pkcs8 = object.export({ type: 'pkcs8', format: 'der' });
  const algorithm = importAlgorithm(object);
  return nodeCrypto.subtle.importKey('pkcs8', pkcs8, algorithm, false, ['sign']);
}

function importAlgorithm(object: KeyObject): webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams {
  if (object.asymmetricKeyType === 'rsa') return { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
  if (object.asymmetricKeyType === 'ec') {
    const curve = object.asymmetricKeyDetails?.namedCurve;
    const named = curve === 'prime256v1' ? 'P-256' : curve === 'secp384r1' ? 'P-384' : undefined;
    if (named !== undefined) return { name: 'ECDSA', namedCurve: named };
  }
  throw new OperationError(
    `the cluster CA key type (${object.asymmetricKeyType ?? 'unknown'}) cannot sign certificates here`,
    { hint: 'use an RSA, ECDSA P-256 or ECDSA P-384 CA key' },
  );
}

/** The parameters X509CertificateGenerator needs to sign with `key` (hash and, for ECDSA, curve). */
export function signatureParams(key: CryptoKey): webcrypto.Algorithm | webcrypto.EcdsaParams {
  const hash = key.algorithm.name === 'ECDSA' && (key.algorithm as webcrypto.EcKeyAlgorithm).namedCurve === 'P-384' ? 'SHA-384' : 'SHA-256';
  return key.algorithm.name === 'ECDSA' ? { name: 'ECDSA', hash } : { name: key.algorithm.name, hash };
}
