/**
 * The controller server's TLS material: the files --tls-cert-file and --tls-private-key-file name,
 * or, without them, a certificate made for this process (src/pki/self-signed.ts), so that HTTPS is
 * always served, as Go kwok serves it; and the CA of callers' certificates (--client-ca-file).
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { PreflightError } from '../../util/errors.js';
import type { KwokControllerOptions } from './options.js';

export interface ServerTls {
  cert: string;
  key: string;
  clientCa?: string;
}

async function readNamed(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new PreflightError(`${flag}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

export async function serverTls(options: Pick<KwokControllerOptions, 'tlsCertFile' | 'tlsPrivateKeyFile' | 'clientCaFile' | 'nodeIP' | 'nodeName'>, listenHost: string): Promise<ServerTls> {
  const clientCa = options.clientCaFile ? { clientCa: await readNamed('--client-ca-file', options.clientCaFile) } : {};
  if (options.tlsCertFile) {
    const [cert, key] = await Promise.all([readNamed('--tls-cert-file', options.tlsCertFile), readNamed('--tls-private-key-file', options.tlsPrivateKeyFile)]);
    return { cert, key, ...clientCa };
  }
  // The names the apiserver and tools may dial it by, for whoever checks them against the certificate.
  const ips = [options.nodeIP, listenHost].filter((v) => isIP(v) !== 0 && v !== '0.0.0.0' && v !== '::');
  const dns = options.nodeName && isIP(options.nodeName) === 0 ? [options.nodeName] : [];
  const { selfSignedServingCertificate } = await import('../../pki/self-signed.js');
  return { ...(await selfSignedServingCertificate({ dns, ips })), ...clientCa };
}
