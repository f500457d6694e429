/**
 * NODE_EXTRA_CA_CERTS, loaded when a TLS connection needs it instead of when Node starts.
 *
 * Why: Node 20 with OpenSSL 3 parses every certificate the variable names while it starts
 * (nodejs/node#40524). Pointed at a system bundle, as corporate and CI machines often do, that
 * can take longer than Node's own start, before any of kwokts runs, and every `kwokts` call and
 * every controller start pays it. Almost none of them make a TLS connection
 * that trusts the default roots (the apiserver, etcd and kubelet connections name their CA).
 *
 * How: the installed launcher (bin/kwokts) moves the variable's value to DEFERRED_ENV before it
 * starts Node, and the Node entries call resumeExtraCaCerts() first thing. That puts the
 * variable back for the programs kwokts starts (they see the environment the user set) and
 * makes every TLS context that trusts the default roots trust the extra certificates too, as
 * Node would have: tls.connect, https and the kube client's pool all create their contexts through
 * tls.createSecureContext, so that is the one place to wrap. The file is read at the first such
 * context; a file that cannot be read is warned about and ignored, as Node does.
 *
 * When: an entry that may do anything (oclif's commands, the controller) resumes at once. The
 * fast path's commands (delete, get clusters, the passthroughs, an etcd restore) only put the
 * variable back: their connections go to the cluster's components, each with its own CA, which
 * the wrap leaves alone. Loading node:tls to wrap it would be a sizeable part of a delete's time. What could still make a default-trust connection on their way (a
 * download, an engine or apiserver reached over TLS without a CA of its own) calls
 * ensureExtraCaTrust() first.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { SecureContext, SecureContextOptions } from 'node:tls';

/** Where bin/kwokts puts NODE_EXTRA_CA_CERTS's value for the Node side to take back. */
export const DEFERRED_ENV = 'KWOKTS_DEFERRED_NODE_EXTRA_CA_CERTS';
const NODE_ENV = 'NODE_EXTRA_CA_CERTS';

/**
 * Per process, not per module instance: the fast path's bundle and the tsc-built modules it
 * sometimes loads (resolving a tool may download it) each have a copy of this module, and the
 * bundle the one that took the value back.
 */
interface ExtraCaState {
  /** The bundle taken back and not trusted yet. */
  pending?: string;
  /** The wrap of tls.createSecureContext, once begun: callers that come while it loads node:tls wait for it too. */
  trusting?: Promise<void>;
  /** tls.createSecureContext is wrapped. */
  installed?: boolean;
}
const STATE_KEY = Symbol.for('kwokts.extra-ca-certs');
const state: ExtraCaState = ((globalThis as Record<symbol, ExtraCaState | undefined>)[STATE_KEY] ??= {});

/**
 * Takes the deferred value back (see above): NODE_EXTRA_CA_CERTS is set again for child
 * processes, DEFERRED_ENV removed, and default-trust TLS contexts get the extra certificates.
 * Does nothing when there is nothing deferred. Call it before any TLS connection is made.
 */
export async function resumeExtraCaCerts(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  takeBackExtraCaCerts(env);
  await ensureExtraCaTrust();
}

/**
 * The cheap half of resumeExtraCaCerts: the variable back for child processes, the trust left to
 * ensureExtraCaTrust(), which whatever may make a default-trust connection calls first.
 */
export function takeBackExtraCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const deferred = env[DEFERRED_ENV];
  delete env[DEFERRED_ENV];
  if (deferred === undefined || deferred === '') return;
  env[NODE_ENV] = deferred;
  // Node resolves a relative path against the directory it started in; so do we, now.
  state.pending = resolve(deferred);
}

/** Default-trust TLS contexts trust the bundle taken back, if there is one; cheap once done. */
export async function ensureExtraCaTrust(): Promise<void> {
  if (state.pending !== undefined) {
    state.trusting = trustExtraCaCerts(state.pending);
    state.pending = undefined;
  }
  await state.trusting;
}

/**
 * The environment for one of kwokts's own Node programs (the controller): the variable deferred
 * again, so that program starts without parsing the bundle and resumes it itself.
 */
export function deferExtraCaCerts(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const value = env[NODE_ENV];
  if (value === undefined || value === '' || usesOtherCaStore(env.NODE_OPTIONS)) return { ...env };
  // Absolute: the program may start in another directory (the controller's is its cluster's).
  return { ...env, [NODE_ENV]: undefined, [DEFERRED_ENV]: resolve(value) };
}

/**
 * With --use-openssl-ca (or --use-system-ca) the default roots are not Node's bundle, so the
 * bundle plus the extras would not be what Node trusts: the launcher leaves those alone.
 */
function usesOtherCaStore(nodeOptions: string | undefined): boolean {
  return nodeOptions !== undefined && /--use-(openssl|system)-ca\b/.test(nodeOptions);
}

/**
 * Wraps tls.createSecureContext once per process (a second call is a no-op). node:tls is loaded
 * here, not at the top: the spawners import this module for deferExtraCaCerts alone.
 */
async function trustExtraCaCerts(file: string): Promise<void> {
  if (state.installed) return;
  state.installed = true;
  const tls = (await import('node:tls')).default;
  const original = tls.createSecureContext;
  let ca: string[] | undefined;
  const defaultTrust = (): string[] => {
    if (ca === undefined) {
      let extra: string[] = [];
      try {
        extra = readExtraCertificates(file, tls.rootCertificates);
      } catch (error) {
        // Node's own words for a file it cannot use; it then goes on with the default roots.
        process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(error as Error).message}`);
      }
      ca = [...tls.rootCertificates, ...extra];
    }
    return ca;
  };
  // Node builds its default root store once per process; a context given `ca` parses every
  // certificate again. So the plain client context (the usual one: no certificate of its own, no
  // TLS settings) is made once and shared, as Node shares that store.
  let plainClient: SecureContext | undefined;
  tls.createSecureContext = function createSecureContext(options?: SecureContextOptions): SecureContext {
    // An explicit `ca` replaces the default roots in Node, extras included: leave it alone. So
    // does a server's context (Node gives every server a sessionIdContext): its CA list only
    // checks client certificates, which no kwokts server asks for without a `ca` of its own.
    if (options?.ca !== undefined || options?.sessionIdContext !== undefined) return original(options);
    if (!CONTEXT_OPTIONS.some((name) => options?.[name] !== undefined)) return (plainClient ??= original({ ca: defaultTrust() }));
    return original({ ...options, ca: defaultTrust() });
  };
}

/**
 * The options that make a secure context differ (tls.connect passes all its options to
 * createSecureContext; host, port, servername and the like only matter to the connection).
 */
const CONTEXT_OPTIONS = [
  'cert', 'key', 'pfx', 'passphrase', 'privateKeyEngine', 'privateKeyIdentifier', 'clientCertEngine', 'ciphers', 'sigalgs', 'ecdhCurve', 'dhparam',
  'minVersion', 'maxVersion', 'secureProtocol', 'secureOptions', 'honorCipherOrder', 'crl', 'ticketKeys', 'sessionTimeout',
] as const satisfies ReadonlyArray<keyof SecureContextOptions>;

/**
 * The PEM certificates of a bundle, in order (text between them is ignored), less those already
 * among `known` (Node's bundled roots). A system bundle mostly repeats Node's roots, and every
 * certificate in a context's `ca` is parsed again when the context is made: leaving the repeats
 * out saves most of that parsing, for the same trust.
 * The others are parsed here, once, so that a bad one makes the whole file ignored with a warning,
 * as at Node's start, rather than failing every connection later; a repeat is a copy of a root
 * Node parsed already.
 */
export function readExtraCertificates(file: string, known: readonly string[] = []): string[] {
  const blocks = readFileSync(file, 'utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate in it');
  // The same base64 body is the same DER, whatever the line breaks.
  const body = (pem: string): string => pem.replace(/\s+/g, '');
  const roots = new Set(known.map(body));
  const extra = blocks.filter((block) => !roots.has(body(block)));
  // node:crypto only now: a command that never makes a default-trust connection never loads it.
  const { X509Certificate } = process.getBuiltinModule('node:crypto');
  for (const block of extra) new X509Certificate(block);
  return extra;
}
