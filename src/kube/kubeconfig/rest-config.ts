/**
 * A kubeconfig file read into what a client needs: the server, TLS material and where the
 * credentials come from. Written here rather than borrowed from @kubernetes/client-node, whose
 * import loads the whole generated API client (start-up time and memory the controller pays for
 * the one class it used). Semantics are client-go's clientcmd: the current context (or a named one), file
 * paths relative to the kubeconfig's own directory, `*-data` fields winning over their file
 * twins, and a token file or exec plugin as the credential source.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseYamlDocuments } from '../../gocompat/yaml/index.js';

export interface TlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  rejectUnauthorized?: boolean;
  servername?: string;
}

export interface ExecPlugin {
  command: string;
  args: string[];
  env: Array<{ name: string; value: string }>;
  apiVersion: string;
  /** Where relative commands are found from: the kubeconfig's directory. */
  dir: string;
}

/** Where a request's credentials come from; TLS client certificates are in `tls`. */
export type Credentials =
  | { kind: 'none' }
  | { kind: 'token'; token: string }
  | { kind: 'token-file'; path: string }
  | { kind: 'basic'; username: string; password: string }
  | { kind: 'exec'; plugin: ExecPlugin };

export interface RestConfig {
  server: URL;
  tls: TlsMaterial;
  credentials: Credentials;
}

export class KubeconfigError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    /** Set when the asked-for context is missing: the contexts the file has. */
    readonly contexts?: string[],
  ) {
    super(`kubeconfig ${file}: ${detail}`);
    this.name = 'KubeconfigError';
  }
}

type Entry = Record<string, unknown>;

/** Read `file` and resolve its current context (or `context`) to a RestConfig. */
export function readRestConfig(file: string, context?: string): RestConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new KubeconfigError(file, (error as Error).message);
  }
  return restConfigFromText(text, file, context);
}

export function restConfigFromText(text: string, file: string, contextName?: string): RestConfig {
  let doc: unknown;
  try {
    [doc] = parseYamlDocuments(text);
  } catch (error) {
    throw new KubeconfigError(file, `invalid YAML: ${(error as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null) throw new KubeconfigError(file, 'is empty');
  const config = doc as Entry;
  const dir = dirname(resolve(file));
  const name = contextName ?? stringField(config['current-context']);
  if (!name) throw new KubeconfigError(file, 'has no current-context');
  const context = named(config.contexts, 'context', name);
  if (!context) {
    const known = Array.isArray(config.contexts) ? (config.contexts as Entry[]).map((c) => String(c?.name)) : [];
    throw new KubeconfigError(file, `has no context ${JSON.stringify(name)}`, known);
  }
  const clusterName = stringField(context.cluster);
  const cluster = clusterName ? named(config.clusters, 'cluster', clusterName) : undefined;
  if (!cluster) throw new KubeconfigError(file, `context ${name} names cluster ${JSON.stringify(clusterName)}, which is not in the file`);
  const server = stringField(cluster.server);
  if (!server) throw new KubeconfigError(file, `cluster ${clusterName} has no server`);
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new KubeconfigError(file, `cluster ${clusterName} has an invalid server URL ${JSON.stringify(server)}`);
  }
  const userName = stringField(context.user);
  const user = userName ? (named(config.users, 'user', userName) ?? {}) : {};

  const tls: TlsMaterial = {};
  const ca = material(cluster, 'certificate-authority', dir);
  if (ca) tls.ca = ca;
  if (cluster['insecure-skip-tls-verify'] === true) tls.rejectUnauthorized = false;
  const serverName = stringField(cluster['tls-server-name']);
  if (serverName) tls.servername = serverName;
  const cert = material(user, 'client-certificate', dir);
  const key = material(user, 'client-key', dir);
  if (cert) tls.cert = cert;
  if (key) tls.key = key;
  return { server: url, tls, credentials: credentialsOf(user, dir) };
}

function credentialsOf(user: Entry, dir: string): Credentials {
  const token = stringField(user.token);
  if (token) return { kind: 'token', token };
  const tokenFile = stringField(user.tokenFile);
  if (tokenFile) return { kind: 'token-file', path: resolvePath(tokenFile, dir) };
  const username = stringField(user.username);
  if (username) return { kind: 'basic', username, password: stringField(user.password) ?? '' };
  const exec = user.exec;
  if (typeof exec === 'object' && exec !== null) {
    const e = exec as Entry;
    const command = stringField(e.command);
    if (command) {
      return {
        kind: 'exec',
        plugin: {
          command,
          args: Array.isArray(e.args) ? e.args.map(String) : [],
          env: Array.isArray(e.env) ? (e.env as Entry[]).map((v) => ({ name: String(v.name), value: String(v.value ?? '') })) : [],
          apiVersion: stringField(e.apiVersion) ?? 'client.authentication.k8s.io/v1',
          dir,
        },
      };
    }
  }
  return { kind: 'none' };
}

/** `<field>-data` (base64) wins over `<field>` (a file path), as in client-go. */
function material(entry: Entry, field: string, dir: string): Buffer | undefined {
  const data = stringField(entry[`${field}-data`]);
  if (data) return Buffer.from(data, 'base64');
  const path = stringField(entry[field]);
  return path ? readFileSync(resolvePath(path, dir)) : undefined;
}

function resolvePath(path: string, dir: string): string {
  return isAbsolute(path) ? path : resolve(dir, path);
}

function named(list: unknown, key: string, name: string): Entry | undefined {
  if (!Array.isArray(list)) return undefined;
  const found = (list as Entry[]).find((item) => item?.name === name);
  const value = found?.[key];
  return typeof value === 'object' && value !== null ? (value as Entry) : undefined;
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
