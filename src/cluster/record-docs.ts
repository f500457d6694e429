import type { Component, ReadinessProbe } from '../components/index.js';
import type { ComponentPatch } from '../config/load.js';
import type { ClusterOptionValues } from '../config/options.js';
import { PreflightError, UsageError } from '../util/errors.js';
import type { ClusterRecord } from './record.js';

// A module of its own, with no YAML parser in it, so that the CLI's fast path (src/cli/fast-delete.ts, fast-passthrough.ts)
// can read a record with a lighter parser than record.ts's.

type RawComponent = Record<string, unknown>;

const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

function envMap(raw: RawComponent): Record<string, string> {
  if (Array.isArray(raw.envs)) {
    return Object.fromEntries((raw.envs as Array<{ name?: unknown; value?: unknown }>).map((e) => [String(e.name ?? ''), String(e.value ?? '')]));
  }
  // Records written before envs: a map.
  return raw.env && typeof raw.env === 'object' ? (raw.env as Record<string, string>) : {};
}

/** A component as we describe it, from either tool's record. */
function parseComponent(raw: RawComponent): Component {
  const base = {
    name: String(raw.name ?? ''),
    args: stringList(raw.args),
    env: envMap(raw),
    links: stringList(raw.links),
    ports: (Array.isArray(raw.ports) ? raw.ports : []) as Component['ports'],
  };
  if (raw.program && typeof raw.program === 'object') {
    // Ours: every field we wrote is there; binary and envs are kwokctl's views of program and env.
    const { binary: _binary, envs: _envs, env: _env, ...rest } = raw;
    return { ...(rest as unknown as Component), ...base };
  }
  // kwokctl's: the binary is the program. Readiness is checked where we know the component's
  // health endpoint, so `start cluster` returns once the cluster answers (kwokctl waits too).
  const probe = kwokctlProbe(base.name, base.ports);
  return {
    ...base,
    program: { path: String(raw.binary ?? '') },
    ...(probe ? { probe } : {}),
    ...(typeof raw.workDir === 'string' && raw.workDir ? { workDir: raw.workDir } : {}),
    ...(typeof raw.image === 'string' && raw.image ? { image: raw.image } : {}),
    ...(Array.isArray(raw.command) ? { command: stringList(raw.command) } : {}),
    ...(Array.isArray(raw.volumes) ? { volumes: raw.volumes as Component['volumes'] } : {}),
  };
}

/** Health endpoints of kwokctl's components, found by component name and port name. */
function kwokctlProbe(name: string, ports: Component['ports']): ReadinessProbe | undefined {
  const port = (portName: string): number | undefined => ports.find((p) => p.name === portName)?.port;
  const http = port('http');
  const https = port('https');
  switch (name) {
    case 'etcd':
      return http ? { scheme: 'http', port: http, path: '/health', clientCert: false } : undefined;
    case 'kube-apiserver':
      if (https) return { scheme: 'https', port: https, path: '/healthz', clientCert: true };
      return http ? { scheme: 'http', port: http, path: '/healthz', clientCert: false } : undefined;
    case 'kube-controller-manager':
    case 'kube-scheduler':
      if (https) return { scheme: 'https', port: https, path: '/healthz', clientCert: false };
      return http ? { scheme: 'http', port: http, path: '/healthz', clientCert: false } : undefined;
    case 'kwok-controller':
      return http ? { scheme: 'http', port: http, path: '/healthz', clientCert: false } : undefined;
    default:
      return undefined;
  }
}

/** A cluster record from the documents of its kwok.yaml (parsed by the caller). */
export function recordFromDocuments(name: string, docs: Array<Record<string, unknown>>, source: string): ClusterRecord {
  const head = docs.find((d) => d?.kind === 'KwokctlConfiguration');
  if (!head) throw new UsageError(`${source} has no KwokctlConfiguration`, { hint: `delete the cluster with \`kwokts --name ${name} delete cluster\`` });
  const options = (head.options ?? {}) as ClusterOptionValues;
  const status = (head.status ?? {}) as Record<string, unknown>;
  const foreign = status.kwoktsVersion === undefined && !String(status.version ?? '').startsWith('kwokts-');
  return {
    name,
    runtime: String(options.runtime || 'binary'),
    options,
    componentsPatches: (head.componentsPatches ?? []) as ComponentPatch[],
    components: ((head.components ?? []) as RawComponent[]).map(parseComponent),
    programs: (head.programs ?? {}) as Record<string, string>,
    kwokDocuments: docs.filter((d) => d !== head),
    version: foreign ? '' : String(status.kwoktsVersion ?? status.version ?? '').replace(/^kwokts-/, ''),
    ...(foreign ? { foreign: true } : {}),
  };
}

/**
 * kwokts drives a kwokctl cluster of the binary runtime (processes and pid files, the same for
 * both tools); a kwokctl cluster in containers or kind carries kwokctl's names and labels, not
 * ours, so changing it is refused rather than half done.
 */
export function assertManageable(record: ClusterRecord): void {
  if (record.foreign && record.runtime !== 'binary') {
    throw new PreflightError(`cluster ${record.name} was made by kwokctl with the ${record.runtime} runtime; kwokts manages kwokctl clusters of the binary runtime only`, {
      hint: `use kwokctl for it, e.g. \`kwokctl --name ${record.name} delete cluster\``,
    });
  }
}
