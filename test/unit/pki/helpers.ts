import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type ServerOptions } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';

export function hasBinary(name: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
}

/** A scratch directory removed by the returned cleanup. */
export function scratchDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function writeFiles(dir: string, files: Record<string, string>): Record<string, string> {
  const paths: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    paths[name] = join(dir, name);
    writeFileSync(paths[name], content, { mode: 0o600 });
  }
  return paths;
}

export function openssl(args: string[], input?: string): string {
  return execFileSync('openssl', args, { encoding: 'utf8', input, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** `openssl x509 -text` of a PEM certificate. */
export function certText(pem: string): string {
  return openssl(['x509', '-noout', '-text', '-nameopt', 'RFC2253'], pem);
}

export interface PeerIdentity {
  CN: string | undefined;
  O: string | string[] | undefined;
}

/**
 * Serves HTTPS on 127.0.0.1 with client certificates required, answers with the peer's
 * subject, and makes one request with the given client identity.
 */
export async function mtlsRoundTrip(
  server: { cert: string; key: string; ca: string },
  client: { cert: string; key: string; ca: string; servername?: string },
): Promise<PeerIdentity> {
  const options: ServerOptions = { cert: server.cert, key: server.key, ca: server.ca, requestCert: true, rejectUnauthorized: true };
  const httpsServer = createServer(options, (req, res) => {
    const peer = (req.socket as TLSSocket).getPeerCertificate();
    res.end(JSON.stringify({ CN: peer.subject.CN, O: peer.subject.O }));
  });
  await new Promise<void>((resolve) => httpsServer.listen(0, '127.0.0.1', resolve));
  const { port } = httpsServer.address() as AddressInfo;
  try {
    return await new Promise<PeerIdentity>((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port,
          path: '/',
          ca: client.ca,
          cert: client.cert,
          key: client.key,
          ...(client.servername !== undefined ? { servername: client.servername } : {}),
          agent: false,
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(JSON.parse(body) as PeerIdentity));
        },
      );
      req.on('error', reject);
      req.end();
    });
  } finally {
    httpsServer.closeAllConnections();
    await new Promise<void>((resolve) => httpsServer.close(() => resolve()));
  }
}
