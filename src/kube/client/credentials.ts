/**
 * Request headers from a kubeconfig's credential source. Token files are re-read (service
 * account tokens rotate); an exec plugin's answer is kept until its expirationTimestamp, as
 * client-go does, and its client certificate, when it returns one, is handed back for TLS.
 */
import { isAbsolute, resolve } from 'node:path';
import { readTokenFile } from '../kubeconfig/in-cluster.js';
import type { Credentials, ExecPlugin } from '../kubeconfig/rest-config.js';

export interface CredentialAnswer {
  headers: Record<string, string>;
  /** When the answer stops being valid (exec plugins); undefined: re-read on the usual schedule. */
  expiresAt?: number;
  /** A client certificate from an exec plugin. */
  cert?: Buffer;
  key?: Buffer;
}

export async function readCredentials(credentials: Credentials): Promise<CredentialAnswer> {
  switch (credentials.kind) {
    case 'none':
      return { headers: {} };
    case 'token':
      return { headers: { Authorization: `Bearer ${credentials.token}` } };
    case 'token-file': {
      const token = readTokenFile(credentials.path);
      return { headers: token ? { Authorization: `Bearer ${token}` } : {} };
    }
    case 'basic':
      return { headers: { Authorization: `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`).toString('base64')}` } };
    case 'exec':
      return runExecPlugin(credentials.plugin);
  }
}

async function runExecPlugin(plugin: ExecPlugin): Promise<CredentialAnswer> {
  // A command with a slash is a path (relative to the kubeconfig); a bare name is looked up on PATH.
  const command = plugin.command.includes('/') && !isAbsolute(plugin.command) ? resolve(plugin.dir, plugin.command) : plugin.command;
  const request = { apiVersion: plugin.apiVersion, kind: 'ExecCredential', spec: { interactive: false } };
  // Loaded on use: most kubeconfigs have no exec plugin, and the controller starts faster without it.
  const { execa } = await import('execa');
  const result = await execa(command, plugin.args, {
    env: { ...Object.fromEntries(plugin.env.map((e) => [e.name, e.value])), KUBERNETES_EXEC_INFO: JSON.stringify(request) },
    reject: false,
    timeout: 60_000,
  });
  if (result.exitCode !== 0) throw new Error(`exec credential plugin ${plugin.command} failed (exit ${result.exitCode}): ${String(result.stderr).trim().slice(0, 300)}`);
  let status: Record<string, unknown>;
  try {
    status = ((JSON.parse(String(result.stdout)) as Record<string, unknown>).status ?? {}) as Record<string, unknown>;
  } catch {
    throw new Error(`exec credential plugin ${plugin.command} printed no ExecCredential JSON`);
  }
  const answer: CredentialAnswer = { headers: {} };
  if (typeof status.token === 'string' && status.token) answer.headers.Authorization = `Bearer ${status.token}`;
  if (typeof status.clientCertificateData === 'string') answer.cert = Buffer.from(status.clientCertificateData);
  if (typeof status.clientKeyData === 'string') answer.key = Buffer.from(status.clientKeyData);
  if (typeof status.expirationTimestamp === 'string') {
    const at = Date.parse(status.expirationTimestamp);
    if (Number.isFinite(at)) answer.expiresAt = at;
  }
  return answer;
}
