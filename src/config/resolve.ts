/**
 * Option values from the table (options.ts), resolved kwokctl's way: defaults ← config files ←
 * KWOK_* variables ← flags, then what kwokctl derives from them (deprecated archives, the
 * authorization and admission defaults, ...). Also the one place that decides which given values
 * kwokts cannot honour, so `create cluster` warns once per field.
 */
import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../util/errors.js';
import { defaultOptionValues, goPlatform, OPTION_SPECS, SPEC_BY_KEY, upstreamDefaults, type ClusterOptionValues, type OptionKey, type OptionSpec } from './options.js';

/** Option values given by one layer (files, env or flags), by key; absent = not given. */
export type GivenOptions = Partial<Record<OptionKey, unknown>>;

const BOOL_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);
const BOOL_FALSE = new Set(['0', 'f', 'F', 'FALSE', 'false', 'False']);

/** Turn a flag, env or YAML value into the option's type, or a UsageError naming where it came from. */
export function coerce(spec: OptionSpec, value: unknown, where: string): string | number | boolean | string[] {
  const fail = (): never => {
    throw new UsageError(`${where}: expected ${describeType(spec)}, got ${JSON.stringify(value)}`);
  };
  switch (spec.type) {
    case 'string':
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      return fail();
    case 'uint':
    case 'int':
    case 'float': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : NaN;
      if (!Number.isFinite(n)) return fail();
      if (spec.type !== 'float' && !Number.isInteger(n)) return fail();
      if (spec.type === 'uint' && (n < 0 || n > 0xffffffff)) return fail();
      return n;
    }
    case 'boolean':
      if (typeof value === 'boolean') return value;
      // Go's strconv.ParseBool, which kwokctl's flags and variables use.
      if (typeof value === 'string' && BOOL_TRUE.has(value.trim())) return true;
      if (typeof value === 'string' && BOOL_FALSE.has(value.trim())) return false;
      return fail();
    case 'strings':
      // A comma-separated string is what the flags take; config files write lists.
      if (typeof value === 'string') return value.split(',').map((s) => s.trim()).filter((s) => s !== '');
      if (Array.isArray(value) && value.every((s) => typeof s === 'string' || typeof s === 'number')) return value.map(String);
      return fail();
  }
}

function describeType(spec: OptionSpec): string {
  return { string: 'a string', uint: 'a non-negative integer', int: 'an integer', float: 'a number', boolean: 'true or false', strings: 'a list of strings' }[spec.type];
}

/** KWOK_* variables that are set (empty counts as unset, as in kwokctl), as typed values. */
export function envOptions(env: NodeJS.ProcessEnv): GivenOptions {
  const out: Record<string, unknown> = {};
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    const raw = spec.env ? env[spec.env] : undefined;
    if (raw !== undefined && raw !== '') out[spec.key] = coerce(spec, raw, `environment variable ${spec.env}`);
  }
  return out as GivenOptions;
}

function typed(given: GivenOptions, where: (spec: OptionSpec) => string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(given)) {
    const spec = SPEC_BY_KEY.get(key);
    if (!spec || raw === undefined) continue;
    out[key] = coerce(spec, raw, where(spec));
  }
  return out;
}

/** Defaults ← config files ← KWOK_* env ← flags, then kwokctl's derived values. */
export function resolveOptionValues(fileOptions: GivenOptions, env: NodeJS.ProcessEnv, flags: GivenOptions): ClusterOptionValues {
  const fromEnv = envOptions(env);
  const fromFlags = typed(flags, (s) => `flag --${s.flag ?? s.key}`);
  const values = defaultOptionValues() as Record<string, unknown>;
  Object.assign(values, withoutPinnedDefaults(fileOptions));
  // kwokctl (pkg/config/vars.go): authorization defaults to securePort, admission to
  // authorization; both are decided before KWOK_KUBE_AUTHORIZATION is read.
  const securePort = (fromEnv.securePort ?? values.securePort) as boolean;
  if (fileOptions.kubeAuthorization === undefined) values.kubeAuthorization = securePort;
  if (fileOptions.kubeAdmission === undefined) values.kubeAdmission = values.kubeAuthorization;
  Object.assign(values, fromEnv, fromFlags);
  return deriveValues(values as ClusterOptionValues);
}

/** Everything an option can be set by, as create cluster has it: for warnings that name where a value came from. */
export interface OptionInputs {
  fileOptions: GivenOptions;
  /** The file that set each of fileOptions. */
  optionSources: Partial<Record<OptionKey, string>>;
  env: NodeJS.ProcessEnv;
  flags: GivenOptions;
}

/**
 * One warning line for each option that is set to a value kwokts cannot honour, naming the flag,
 * variable or file that set it. A value equal to kwokctl's own default is no choice (`kwokctl
 * config tidy` writes every default into the file) and passes quietly.
 */
export function unsupportedOptionWarnings(inputs: OptionInputs, workdir: string): string[] {
  const fromEnv = envOptions(inputs.env) as Record<string, unknown>;
  const fromFlags = typed(inputs.flags, (s) => `flag --${s.flag ?? s.key}`);
  const files = inputs.fileOptions as Record<string, unknown>;
  // The value that wins for each option that is set, and where it was set.
  const given: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    const key = spec.key;
    if (key in fromFlags) [given[key], origin[key]] = [fromFlags[key], `flag --${spec.flag} (${key})`];
    else if (key in fromEnv) [given[key], origin[key]] = [fromEnv[key], `environment variable ${spec.env} (${key})`];
    else if (key in files) [given[key], origin[key]] = [files[key], `config file ${inputs.optionSources[key as OptionKey] ?? '?'}: options.${key}`];
  }
  const upstream = upstreamDefaults(given, workdir);
  const out: string[] = [];
  for (const spec of OPTION_SPECS as readonly OptionSpec[]) {
    const key = spec.key as OptionKey;
    if (!(key in given)) continue;
    const value = given[key];
    if (isDeepStrictEqual(value, spec.default) || isDeepStrictEqual(value, upstream.get(key))) continue;
    const honoured = spec.honour !== 'unsupported' && (HONOURED[key]?.(value) ?? true);
    if (honoured) continue;
    out.push(`${origin[key]} is not supported by kwokts and is ignored${spec.note ? `: ${spec.note}` : ''}`);
  }
  return out;
}

const isUrl = (s: unknown): boolean => typeof s === 'string' && /^[a-z][a-z0-9+.-]*:\/\//i.test(s) && !s.startsWith('file://');

/** For options kwokts honours only in part: which values it does honour. */
const HONOURED: Partial<Record<OptionKey, (value: unknown) => boolean>> = {
  securePort: (v) => v === true,
  kwokControllerBinary: (v) => typeof v === 'string' && !isUrl(v),
  kwokBinaryPrefix: (v) => typeof v === 'string' && !isUrl(v),
  kindBinary: (v) => typeof v === 'string' && !isUrl(v),
  kectlBinary: (v) => typeof v === 'string' && !isUrl(v),
};

/**
 * Options whose kwokctl default kwokts does not use (Go kwok's image and binary, kind's download,
 * the runtime order, 0.0.0.0 where kwokts listens on loopback). `kwokctl config tidy` pins these
 * defaults into the file, which then does not express a choice: in a config file, kwokctl's
 * default means kwokts's default. (A flag or variable is a choice and is taken as given.)
 */
const PINNED_MEANS_DEFAULT: readonly OptionKey[] = [
  'kwokImagePrefix', 'kwokControllerImage', 'kwokBinaryPrefix', 'kwokControllerBinary', 'kindBinaryPrefix', 'kindBinary', 'kectlBinary', 'runtimes', 'bindAddress',
  // metrics-server: kwokts's default is v0.9.0 (see DEFAULT_METRICS_SERVER_VERSION).
  'metricsServerBinary', 'metricsServerImage', 'metricsServerBinaryPrefix', 'metricsServerVersion',
];

function withoutPinnedDefaults(fileOptions: GivenOptions): GivenOptions {
  const upstream = upstreamDefaults(fileOptions as Record<string, unknown>, '', goPlatform());
  const out: Record<string, unknown> = { ...fileOptions };
  for (const key of PINNED_MEANS_DEFAULT) if (key in out && isDeepStrictEqual(out[key], upstream.get(key))) delete out[key];
  return out as GivenOptions;
}

/** What kwokctl derives from the values it was given, for the options kwokts applies. */
function deriveValues(values: ClusterOptionValues): ClusterOptionValues {
  const out = { ...values };
  const upstream = upstreamDefaults(out as unknown as Record<string, unknown>, '', goPlatform());
  // Also kwokctl's: URLs that are unusable stay unset (warned about by unsupportedOptionWarnings).
  for (const key of ['kwokControllerBinary', 'kwokBinaryPrefix', 'kindBinary', 'kectlBinary'] as const) if (isUrl(out[key])) out[key] = '';
  // kwokctl takes a single-entry runtimes list as the runtime.
  if (out.runtime === '' && out.runtimes.length === 1) out.runtime = out.runtimes[0]!;
  // The deprecated archives: etcd and etcdctl (Prometheus) come from them unless given directly.
  if (out.etcdBinaryTar) {
    if (!out.etcdBinary) out.etcdBinary = `${out.etcdBinaryTar}#etcd`;
    if (!out.etcdctlBinary) out.etcdctlBinary = `${out.etcdBinaryTar}#etcdctl`;
  }
  if (!out.jaegerBinary && out.jaegerBinaryTar) out.jaegerBinary = `${out.jaegerBinaryTar}#jaeger-all-in-one`;
  if (!out.prometheusBinary && out.prometheusBinaryTar) out.prometheusBinary = `${out.prometheusBinaryTar}#prometheus`;
  else if (!out.prometheusBinary && out.prometheusBinaryPrefix) out.prometheusBinary = String(upstream.get('prometheusBinary'));
  // A local kwok release directory: run its kwok binary as the controller.
  if (!out.kwokControllerBinary && out.kwokBinaryPrefix) out.kwokControllerBinary = String(upstream.get('kwokControllerBinary'));
  return out;
}

/**
 * kwokctl's heartbeat factor, applied once at create (as kwokctl's mutationHeartbeat): the lease
 * duration, status update frequency and node monitor periods are multiplied (Go truncates to
 * integers), and the factor becomes 1 so nothing multiplies twice.
 */
export function applyHeartbeatFactor(values: ClusterOptionValues): ClusterOptionValues {
  const f = values.heartbeatFactor;
  if (f === 0 || f === 1) return values;
  const times = (n: number): number => Math.trunc(n * f);
  return {
    ...values,
    nodeLeaseDurationSeconds: times(values.nodeLeaseDurationSeconds),
    nodeStatusUpdateFrequencyMilliseconds: times(values.nodeStatusUpdateFrequencyMilliseconds),
    kubeControllerManagerNodeMonitorGracePeriodMilliseconds: times(values.kubeControllerManagerNodeMonitorGracePeriodMilliseconds),
    kubeControllerManagerNodeMonitorPeriodMilliseconds: times(values.kubeControllerManagerNodeMonitorPeriodMilliseconds),
    heartbeatFactor: 1,
  };
}

/** The components create starts from, kwokctl's way: the base set, --enable, --disable and the deprecated switches. */
export function componentSelection(values: ClusterOptionValues): { base: string[]; enable: string[]; disable: string[] } {
  const enable = [...values.enable];
  const disable = [...values.disable];
  if (values.disableKubeScheduler) disable.push('kube-scheduler');
  if (values.disableKubeControllerManager) disable.push('kube-controller-manager');
  // kwokctl: a non-zero port also enables the component.
  if (values.prometheusPort > 0) enable.push('prometheus');
  if (values.jaegerPort > 0) enable.push('jaeger');
  // The deprecated --enable-metrics-server is --enable metrics-server.
  if (values.enableMetricsServer) enable.push('metrics-server');
  return { base: [...values.components], enable, disable };
}
