/**
 * kwok's command line, parsed the way Go's pflag does it: `--flag=value` and
 * `--flag value`, booleans as `--flag` or `--flag=true|false` (Go spellings), `-c`/`-v` short
 * forms, repeatable --config and comma-separated --enable-crds. Precedence: built-in defaults, then
 * KwokConfiguration options from the config files, then flags.
 */
import { existsSync } from 'node:fs';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { UsageError } from '../../util/errors.js';
import { parseGoDurationMs } from '../../gocompat/go-duration.js';
import { LogLevel, parseLogLevel } from '../../util/log.js';
import type { KwokConfigurationOptions } from './config-file.js';
import { parseLabelSelector } from '../../kube/index.js';
import { checkLeaderElectionTiming, leaderElectionDefaults } from '../controllers/leader-election.js';
import type { ManageMode } from '../controllers/node-selection.js';
import { parseCidr } from '../../util/ip-address.js';
import { CLIENT_CA_FILE_ENV, CONTROLLER_ID_ENV } from '../../util/controller-identity.js';
import { shardDefaults } from '../controllers/shard-membership.js';
import { resolveListenAddress } from '../server/http-server.js';
import { HostPortError } from '../../util/host-port.js';

type FlagKind = 'string' | 'strings' | 'bool' | 'int' | 'duration';

interface FlagSpec {
  name: string;
  kind: FlagKind;
  short?: string;
  help: string;
  hidden?: boolean;
}

export const kwokFlags: readonly FlagSpec[] = [
  { name: 'config', short: 'c', kind: 'strings', help: 'config file (repeatable); multi-document YAML with KwokConfiguration, Stage, Logs, Exec, Attach, PortForward (and Cluster*) documents' },
  { name: 'kubeconfig', kind: 'string', help: 'path to the kubeconfig file (default: in-cluster config, then ~/.kube/config)' },
  { name: 'master', kind: 'string', help: 'the address of the Kubernetes API server (overrides the kubeconfig)' },
  { name: 'manage-all-nodes', kind: 'bool', help: 'manage all nodes' },
  { name: 'manage-nodes-with-annotation-selector', kind: 'string', help: 'manage nodes whose annotations match this selector' },
  { name: 'manage-nodes-with-label-selector', kind: 'string', help: 'manage nodes whose labels match this selector' },
  { name: 'manage-single-node', kind: 'string', help: 'manage only the node with this name' },
  { name: 'disregard-status-with-annotation-selector', kind: 'string', help: 'leave nodes and pods matching this annotation selector alone', hidden: true },
  { name: 'disregard-status-with-label-selector', kind: 'string', help: 'leave nodes and pods matching this label selector alone', hidden: true },
  { name: 'cidr', kind: 'string', help: 'CIDR of pod IPs for nodes without a podCIDR (default 10.0.0.1/24)' },
  { name: 'node-ip', kind: 'string', help: 'IP of the nodes (NodeIP template function, fallback host IP) (default 196.168.0.1)' },
  { name: 'node-name', kind: 'string', help: 'value of the NodeName template function' },
  { name: 'node-port', kind: 'int', help: 'value of the NodePort template function; also the server port when --server-address is empty' },
  { name: 'server-address', kind: 'string', help: 'listen address of the health/metrics/kubelet (logs, exec, attach, port-forward) server, host:port (":port" means 127.0.0.1)' },
  { name: 'tls-cert-file', kind: 'string', help: 'TLS certificate for the server (HTTPS and HTTP share the port; without it, HTTPS with a certificate made at start)' },
  { name: 'tls-private-key-file', kind: 'string', help: 'TLS private key for the server' },
  { name: 'client-ca-file', kind: 'string', help: "authenticate callers by client certificates of this CA or by bearer tokens (a TokenReview), over HTTPS only: logs, exec, attach and port-forward go to system:masters, kube-apiserver-kubelet-client and whom the apiserver allows nodes/proxy, /metrics also to system:monitoring (kwokts addition, the kubelet's flag; default $KWOKTS_CLIENT_CA_FILE)" },
  { name: 'write-shortcuts', kind: 'bool', help: 'send stage writes by the cheapest request with the same effect on the object (a status PUT, a JSON merge patch, answers without the object) and render the stages kwokts ships in TypeScript; false sends each write as the stage says and renders every template with the Go template engine, as kwok does (kwokts addition; default true)' },
  { name: 'enable-crds', kind: 'strings', help: 'take these kinds from CRs instead of --config (Stage, Logs, Exec, Attach, PortForward and their Cluster kinds are implemented)' },
  { name: 'node-lease-duration-seconds', kind: 'int', help: 'duration of node leases; 0 disables leases' },
  { name: 'node-lease-parallelism', kind: 'int', help: 'concurrent node lease requests (default 16)' },
  { name: 'id', kind: 'string', help: 'identity of this controller in leases and events (default $KWOKTS_CONTROLLER_ID, else <hostname>_<uuid>)' },
  { name: 'leader-elect', kind: 'bool', help: 'run as one of several replicas: act only while holding the leader Lease (default false)' },
  { name: 'leader-elect-lease-duration', kind: 'duration', help: 'how long standbys wait after the last renewal before taking over (default 15s)' },
  { name: 'leader-elect-renew-deadline', kind: 'duration', help: 'how long the leader keeps trying to renew before it stops (default 10s)' },
  { name: 'leader-elect-retry-period', kind: 'duration', help: 'interval between attempts to acquire or renew (default 2s)' },
  { name: 'leader-elect-resource-name', kind: 'string', help: 'name of the leader Lease (default kwok-controller)' },
  { name: 'leader-elect-resource-namespace', kind: 'string', help: "namespace of the leader Lease (default: the pod's namespace in a cluster, else kube-system)" },
  { name: 'shard', kind: 'bool', help: 'share the managed nodes with the other controllers started with --shard: each node is leased by exactly one live shard (kwokts addition; default false)' },
  { name: 'shards', kind: 'int', help: 'run this many shard processes: this one and N-1 children with --shard, their own --id (<id>-<i>) and port (kwokts addition; default 1)' },
  { name: 'shard-lease-duration', kind: 'duration', help: 'how long a shard counts as live after its last renewal of its Lease kwok-shard-<id> (default 20s)' },
  { name: 'shard-retry-period', kind: 'duration', help: 'interval between renewals of the shard Lease and lists of the others (default 2s)' },
  { name: 'shard-lease-namespace', kind: 'string', help: 'namespace of the shard Leases (default kube-node-lease)' },
  { name: 'v', short: 'v', kind: 'string', help: 'log level: DEBUG, INFO, WARN, ERROR or -4, 0, 4, 8' },
  { name: 'tracing-endpoint', kind: 'string', help: 'OTLP tracing endpoint (accepted, not implemented)', hidden: true },
  { name: 'tracing-sampling-rate-per-million', kind: 'int', help: 'tracing sampling rate (accepted, not implemented)', hidden: true },
  { name: 'help', short: 'h', kind: 'bool', help: 'show this help' },
];

export type ParsedFlags = Map<string, string[]>;

const goTrue = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const goFalse = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

function parseGoBool(name: string, value: string): boolean {
  if (goTrue.has(value)) return true;
  if (goFalse.has(value)) return false;
  throw new UsageError(`invalid argument "${value}" for "--${name}": not a boolean`);
}

/** Split argv into flag values (every occurrence kept, in order). Positional arguments are rejected. */
export function parseKwokArgs(argv: readonly string[]): ParsedFlags {
  const byName = new Map(kwokFlags.map((f) => [f.name, f]));
  const byShort = new Map(kwokFlags.filter((f) => f.short).map((f) => [f.short!, f]));
  const result: ParsedFlags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    let spec: FlagSpec | undefined;
    let inline: string | undefined;
    if (arg.startsWith('--') && arg.length > 2) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      inline = eq < 0 ? undefined : arg.slice(eq + 1);
      spec = byName.get(name);
      if (!spec) throw new UsageError(`unknown flag: --${name}`, { hint: 'run with --help to list the flags' });
    } else if (arg.startsWith('-') && arg.length > 1 && arg !== '-') {
      const short = arg[1]!;
      spec = byShort.get(short);
      if (!spec) throw new UsageError(`unknown shorthand flag: '${short}' in ${arg}`, { hint: 'run with --help to list the flags' });
      const rest = arg.slice(2);
      inline = rest === '' ? undefined : rest.startsWith('=') ? rest.slice(1) : rest;
    } else {
      throw new UsageError(`unexpected argument "${arg}"`, { hint: 'kwok takes flags only' });
    }
    let value: string;
    if (spec.kind === 'bool') value = inline === undefined ? 'true' : String(parseGoBool(spec.name, inline));
    else if (inline !== undefined) value = inline;
    else {
      const next = argv[i + 1];
      if (next === undefined) throw new UsageError(`flag needs an argument: --${spec.name}`);
      value = next;
      i++;
    }
    const values = result.get(spec.name) ?? [];
    values.push(value);
    result.set(spec.name, values);
  }
  return result;
}

export function renderKwokUsage(): string {
  const visible = kwokFlags.filter((flag) => !flag.hidden);
  const left = visible.map((flag) => {
    const short = flag.short ? `-${flag.short}, ` : '    ';
    const type = flag.kind === 'bool' ? '' : ` ${flag.kind}`;
    return `  ${short}--${flag.name}${type}`;
  });
  const width = Math.max(...left.map((text) => text.length)) + 3;
  return ['Usage: kwok [flags]', '', 'Flags:', ...visible.map((flag, i) => left[i]!.padEnd(width) + flag.help)].join('\n') + '\n';
}

/** Everything the controller process needs, resolved and validated. */
export interface KwokControllerOptions {
  configPaths: string[];
  kubeconfig: string | undefined;
  master: string | undefined;
  manageMode: ManageMode;
  disregardStatusWithAnnotationSelector: string;
  disregardStatusWithLabelSelector: string;
  cidr: string;
  nodeIP: string;
  nodeName: string;
  nodePort: number;
  serverAddress: string;
  tlsCertFile: string;
  tlsPrivateKeyFile: string;
  /** Client certificates of this CA required (kwokts addition; src/kwok/server/client-auth.ts). */
  clientCaFile: string;
  /** --write-shortcuts (kwokts addition; src/kwok/controllers/write-routes.ts). */
  writeShortcuts: boolean;
  enableCRDs: string[];
  nodeLeaseDurationSeconds: number;
  nodeLeaseParallelism: number;
  nodePlayStageParallelism: number;
  podPlayStageParallelism: number;
  id: string;
  logLevel: number;
  leaderElection: LeaderElectionOptions;
  shard: ShardOptions;
}

/** --shard*: a kwokts addition (kwok v0.8.0 has no sharding). */
export interface ShardOptions {
  enabled: boolean;
  /** --shards: processes to run (1: just this one). */
  processes: number;
  leaseDurationMs: number;
  retryPeriodMs: number;
  namespace: string;
}

/** --leader-elect*: the flag names of Kubernetes components (component-base), which kwok has none of. */
export interface LeaderElectionOptions {
  enabled: boolean;
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  resourceName: string;
  /** undefined: the pod's namespace when in a cluster, else kube-system (decided once connected). */
  resourceNamespace: string | undefined;
}

/** Kinds kwok accepts in --enable-crds; those not in implementedCrdKinds are warned about. */
export const knownCrdKinds = [
  'Stage',
  'Attach',
  'ClusterAttach',
  'Exec',
  'ClusterExec',
  'Logs',
  'ClusterLogs',
  'PortForward',
  'ClusterPortForward',
  'ResourceUsage',
  'ClusterResourceUsage',
  'Metric',
] as const;

/** The --enable-crds kinds this controller acts on. */
export const implementedCrdKinds = ['Stage', 'Logs', 'ClusterLogs', 'Exec', 'ClusterExec', 'Attach', 'ClusterAttach', 'PortForward', 'ClusterPortForward', 'Metric', 'ResourceUsage', 'ClusterResourceUsage'] as const;

/**
 * kwok's defaults, except the parallelism: kwok runs 4 blocking Go workers each, while ours are
 * async request slots on one thread, so 4 would cap the controller at 4 requests in flight (and a
 * node cannot be played before its lease exists). 16 converges nodes and pods sooner against a
 * local apiserver (`npm run bench -- controller`); explicit flags and KwokConfiguration values win.
 */
export const kwokDefaults = {
  cidr: '10.0.0.1/24',
  nodeIP: '196.168.0.1',
  nodeLeaseParallelism: 16,
  nodePlayStageParallelism: 16,
  podPlayStageParallelism: 16,
} as const;

function last(flags: ParsedFlags, name: string): string | undefined {
  const values = flags.get(name);
  return values?.[values.length - 1];
}

function durationFlag(flags: ParsedFlags, name: string, fallback: number): number {
  const text = last(flags, name);
  if (text === undefined) return fallback;
  const ms = parseGoDurationMs(text.trim());
  if (ms === undefined || ms < 0) throw new UsageError(`invalid argument "${text}" for "--${name}": not a duration`, { hint: 'use Go durations such as 15s, 500ms or 1m' });
  return ms;
}

function resolveLeaderElection(flags: ParsedFlags): LeaderElectionOptions {
  const options: LeaderElectionOptions = {
    enabled: last(flags, 'leader-elect') === 'true',
    leaseDurationMs: durationFlag(flags, 'leader-elect-lease-duration', leaderElectionDefaults.leaseDurationMs),
    renewDeadlineMs: durationFlag(flags, 'leader-elect-renew-deadline', leaderElectionDefaults.renewDeadlineMs),
    retryPeriodMs: durationFlag(flags, 'leader-elect-retry-period', leaderElectionDefaults.retryPeriodMs),
    resourceName: last(flags, 'leader-elect-resource-name') || leaderElectionDefaults.resourceName,
    resourceNamespace: last(flags, 'leader-elect-resource-namespace') || undefined,
  };
  if (options.enabled) {
    const problem = checkLeaderElectionTiming(options);
    if (problem) {
      throw new UsageError(`--leader-elect: ${problem}`, { hint: 'keep --leader-elect-lease-duration > --leader-elect-renew-deadline > 1.2 × --leader-elect-retry-period' });
    }
  }
  return options;
}

function resolveShard(flags: ParsedFlags): ShardOptions {
  const options: ShardOptions = {
    enabled: last(flags, 'shard') === 'true' || (intFlag(flags, 'shards') ?? 1) > 1,
    processes: intFlag(flags, 'shards') ?? 1,
    leaseDurationMs: durationFlag(flags, 'shard-lease-duration', shardDefaults.leaseDurationMs),
    retryPeriodMs: durationFlag(flags, 'shard-retry-period', shardDefaults.retryPeriodMs),
    namespace: last(flags, 'shard-lease-namespace') || shardDefaults.namespace,
  };
  if (!(options.processes >= 1)) throw new UsageError(`--shards must be at least 1, got ${options.processes}`);
  if (options.enabled && !(options.retryPeriodMs > 0 && options.leaseDurationMs > 2 * options.retryPeriodMs)) {
    throw new UsageError('--shard-lease-duration must be more than twice --shard-retry-period, which must be positive', { hint: 'e.g. --shard-lease-duration=15s --shard-retry-period=2s' });
  }
  return options;
}

function intFlag(flags: ParsedFlags, name: string): number | undefined {
  const text = last(flags, name);
  if (text === undefined) return undefined;
  if (!/^-?\d+$/.test(text.trim())) throw new UsageError(`invalid argument "${text}" for "--${name}": not an integer`);
  return Number(text);
}

/** Config paths from the flags; without --config, ~/.kwok/kwok.yaml if it exists. */
export function configPathsOf(flags: ParsedFlags, home: string = homedir()): string[] {
  const given = flags.get('config');
  if (given && given.length > 0) return given.flatMap((v) => v.split(',')).map((p) => p.trim()).filter((p) => p !== '');
  const fallback = join(home, '.kwok', 'kwok.yaml');
  return existsSync(fallback) ? [fallback] : [];
}

function chooseManageMode(all: boolean, single: string, labels: string, annotations: string): ManageMode {
  if (single) {
    if (all) throw new UsageError('--manage-single-node conflicts with --manage-all-nodes');
    if (labels || annotations) throw new UsageError('--manage-single-node conflicts with --manage-nodes-with-label-selector/--manage-nodes-with-annotation-selector');
    return { kind: 'single', nodeName: single };
  }
  if (all) {
    if (labels || annotations) throw new UsageError('--manage-all-nodes conflicts with --manage-nodes-with-label-selector/--manage-nodes-with-annotation-selector');
    return { kind: 'all' };
  }
  if (labels && annotations) throw new UsageError('choose one of --manage-nodes-with-label-selector and --manage-nodes-with-annotation-selector');
  if (labels) return { kind: 'label-selector', selector: labels };
  if (annotations) return { kind: 'annotation-selector', selector: annotations };
  throw new UsageError('no nodes are managed', {
    hint: 'pass one of --manage-all-nodes, --manage-single-node, --manage-nodes-with-label-selector or --manage-nodes-with-annotation-selector',
  });
}

/**
 * Checked at start with the apiserver's rules: a selector it refuses would otherwise be sent (and
 * answered 400) on every retry of the controller's watch, forever.
 */
function checkSelector(where: string, text: string): void {
  if (!text) return;
  try {
    parseLabelSelector(text);
  } catch (error) {
    throw new UsageError(`${where}: ${(error as Error).message}`, { hint: 'write it as the Kubernetes label selector syntax: key=value, key!=value, key in (a,b), key, !key, comma-separated' });
  }
}

/**
 * Checked at start: the server is only started once the apiserver answers, and by then Node's
 * own words for a bad port ("options.port should be >= 0 and < 65536") name no flag.
 */
function checkServerAddress(where: string, text: string): void {
  try {
    resolveListenAddress(text, 0);
  } catch (error) {
    if (error instanceof HostPortError) throw new UsageError(`${where}: ${error.message}`, { hint: 'give host:port, :port or [IPv6]:port, with a port from 0 to 65535' });
    throw error;
  }
}

/** A DNS-1123 subdomain, as the apiserver wants Node names. */
const NODE_NAME = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/**
 * The node's name goes into field selectors (metadata.name=…, spec.nodeName=…); one that is not
 * a Node name would be refused by the apiserver on every retry, or (with a comma) select
 * something else.
 */
function checkNodeName(where: string, name: string): void {
  if (!NODE_NAME.test(name)) {
    throw new UsageError(`${where}: "${name}" is not a valid node name`, { hint: 'node names are lower-case letters, digits, "-" and ".", starting and ending alphanumeric' });
  }
}

/** Merge defaults, config-file options and flags, then validate like kwok. */
export function resolveKwokOptions(flags: ParsedFlags, fromConfig: KwokConfigurationOptions, configPaths: string[], env: NodeJS.ProcessEnv = process.env): KwokControllerOptions {
  const str = (flag: string, config: string | undefined, fallback = ''): string => last(flags, flag) ?? config ?? fallback;
  const manageAll = flags.has('manage-all-nodes') ? last(flags, 'manage-all-nodes') === 'true' : (fromConfig.manageAllNodes ?? false);
  const single = str('manage-single-node', fromConfig.manageSingleNode);
  const labels = str('manage-nodes-with-label-selector', fromConfig.manageNodesWithLabelSelector);
  const annotations = str('manage-nodes-with-annotation-selector', fromConfig.manageNodesWithAnnotationSelector);
  const manageMode = chooseManageMode(manageAll, single, labels, annotations);

  const options: KwokControllerOptions = {
    configPaths,
    kubeconfig: last(flags, 'kubeconfig'),
    master: last(flags, 'master'),
    manageMode,
    disregardStatusWithAnnotationSelector: str('disregard-status-with-annotation-selector', fromConfig.disregardStatusWithAnnotationSelector),
    disregardStatusWithLabelSelector: str('disregard-status-with-label-selector', fromConfig.disregardStatusWithLabelSelector),
    cidr: str('cidr', fromConfig.cidr, kwokDefaults.cidr),
    nodeIP: str('node-ip', fromConfig.nodeIP, kwokDefaults.nodeIP),
    nodeName: str('node-name', fromConfig.nodeName),
    nodePort: intFlag(flags, 'node-port') ?? fromConfig.nodePort ?? 0,
    serverAddress: str('server-address', fromConfig.serverAddress),
    tlsCertFile: str('tls-cert-file', fromConfig.tlsCertFile),
    tlsPrivateKeyFile: str('tls-private-key-file', fromConfig.tlsPrivateKeyFile),
    clientCaFile: last(flags, 'client-ca-file') ?? env[CLIENT_CA_FILE_ENV] ?? '',
    writeShortcuts: last(flags, 'write-shortcuts') !== 'false',
    enableCRDs: flags.has('enable-crds')
      ? flags.get('enable-crds')!.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '')
      : (fromConfig.enableCRDs ?? []),
    nodeLeaseDurationSeconds: intFlag(flags, 'node-lease-duration-seconds') ?? fromConfig.nodeLeaseDurationSeconds ?? 0,
    nodeLeaseParallelism: intFlag(flags, 'node-lease-parallelism') ?? fromConfig.nodeLeaseParallelism ?? kwokDefaults.nodeLeaseParallelism,
    nodePlayStageParallelism: fromConfig.nodePlayStageParallelism ?? kwokDefaults.nodePlayStageParallelism,
    podPlayStageParallelism: fromConfig.podPlayStageParallelism ?? kwokDefaults.podPlayStageParallelism,
    id: last(flags, 'id') || env[CONTROLLER_ID_ENV] || `${hostname()}_${randomUUID()}`,
    logLevel: LogLevel.INFO,
    leaderElection: resolveLeaderElection(flags),
    shard: resolveShard(flags),
  };
  if (options.shard.enabled && options.leaderElection.enabled) {
    throw new UsageError('--shard and --leader-elect exclude each other', { hint: 'shards already share the nodes; run several with --shard, or one leader with --leader-elect' });
  }

  const level = last(flags, 'v');
  if (level !== undefined) {
    const parsed = parseLogLevel(level);
    if (parsed === undefined) throw new UsageError(`invalid log level "${level}"`, { hint: 'use DEBUG, INFO, WARN, ERROR or -4, 0, 4, 8' });
    options.logLevel = parsed;
  }
  if (!parseCidr(options.cidr)) throw new UsageError(`--cidr: invalid CIDR "${options.cidr}"`);
  if (options.nodePort < 0 || options.nodePort > 65535) throw new UsageError(`--node-port: ${options.nodePort} is not a port`);
  if (options.nodeLeaseDurationSeconds < 0) throw new UsageError('--node-lease-duration-seconds must be 0 or more');
  if (options.nodeLeaseParallelism < 1) throw new UsageError('--node-lease-parallelism must be at least 1');
  if (Boolean(options.tlsCertFile) !== Boolean(options.tlsPrivateKeyFile)) throw new UsageError('--tls-cert-file and --tls-private-key-file go together');
  for (const kind of options.enableCRDs) {
    if (!(knownCrdKinds as readonly string[]).includes(kind)) throw new UsageError(`--enable-crds: unknown kind "${kind}"`, { hint: `known kinds: ${knownCrdKinds.join(', ')}` });
  }
  // A value from a config file is named by its field there, so that the user looks in the right place.
  const where = (flag: string, field: keyof KwokConfigurationOptions): string => (flags.has(flag) ? `--${flag}` : `KwokConfiguration options.${field}`);
  checkServerAddress(where('server-address', 'serverAddress'), options.serverAddress);
  if (manageMode.kind === 'single') checkNodeName(where('manage-single-node', 'manageSingleNode'), manageMode.nodeName);
  checkSelector(where('manage-nodes-with-label-selector', 'manageNodesWithLabelSelector'), labels);
  checkSelector(where('manage-nodes-with-annotation-selector', 'manageNodesWithAnnotationSelector'), annotations);
  checkSelector(where('disregard-status-with-annotation-selector', 'disregardStatusWithAnnotationSelector'), options.disregardStatusWithAnnotationSelector);
  checkSelector(where('disregard-status-with-label-selector', 'disregardStatusWithLabelSelector'), options.disregardStatusWithLabelSelector);
  return options;
}
