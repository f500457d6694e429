/**
 * CEL for Metric values and labels and for ResourceUsage expressions, as kwok's metrics environment
 * has it: the variables `node`, `pod` and `container`, and the functions Now(), Quantity(str),
 * SinceSecond(obj) / obj.SinceSecond(), UnixSecond(time), pod.Usage(resource[, container]),
 * node.Usage(resource), pod.CumulativeUsage(resource[, container]), node.CumulativeUsage(resource)
 * and StartedContainersTotal(node) / node.StartedContainersTotal().
 *
 * The usage numbers come from the caller (the server owns the caches and the cumulative state),
 * injected per evaluation like the clock in cel.ts; evaluation is synchronous, so a module-level
 * "current" is safe.
 */
import { Environment } from '@marcbachmann/cel-js';
import { checkAndParse, parseQuantity, toCelValue, toMillis } from './cel.js';

/** Where the usage functions get their numbers. */
export interface MetricsFunctions {
  now(): Date;
  containerUsage(resource: string, namespace: string, pod: string, container: string): number;
  podUsage(resource: string, namespace: string, pod: string): number;
  nodeUsage(resource: string, node: string): number;
  containerCumulativeUsage(resource: string, namespace: string, pod: string, container: string): number;
  podCumulativeUsage(resource: string, namespace: string, pod: string): number;
  nodeCumulativeUsage(resource: string, node: string): number;
  startedContainersTotal(node: string): number;
}

/** The objects an expression sees; absent ones are null (kwok passes nil). */
export interface MetricsData {
  node?: unknown;
  pod?: unknown;
  container?: unknown;
}

export interface MetricsProgram {
  readonly expression: string;
  evaluate(data: MetricsData, functions: MetricsFunctions): unknown;
}

let current: MetricsFunctions | undefined;

function fns(): MetricsFunctions {
  if (current === undefined) throw new Error('metrics function called outside an evaluation');
  return current;
}

interface Meta {
  name: string;
  namespace: string;
  isPod: boolean;
}

function metaOf(obj: unknown): Meta {
  const o = obj as { metadata?: { name?: unknown; namespace?: unknown }; spec?: { containers?: unknown } } | null;
  return {
    name: typeof o?.metadata?.name === 'string' ? o.metadata.name : '',
    namespace: typeof o?.metadata?.namespace === 'string' ? o.metadata.namespace : '',
    isPod: Array.isArray(o?.spec?.containers),
  };
}

function sinceSecond(obj: unknown): number {
  const created = (obj as { metadata?: { creationTimestamp?: unknown } } | null)?.metadata?.creationTimestamp;
  return (fns().now().getTime() - toMillis(created)) / 1000;
}

function usage(obj: unknown, resource: string, container?: string): number {
  const m = metaOf(obj);
  if (!m.isPod) return fns().nodeUsage(resource, m.name);
  return container === undefined ? fns().podUsage(resource, m.namespace, m.name) : fns().containerUsage(resource, m.namespace, m.name, container);
}

function cumulativeUsage(obj: unknown, resource: string, container?: string): number {
  const m = metaOf(obj);
  if (!m.isPod) return fns().nodeCumulativeUsage(resource, m.name);
  return container === undefined
    ? fns().podCumulativeUsage(resource, m.namespace, m.name)
    : fns().containerCumulativeUsage(resource, m.namespace, m.name, container);
}

function startedContainersTotal(node: unknown): number {
  return fns().startedContainersTotal(metaOf(node).name);
}

function buildEnvironment(): Environment {
  return new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false })
    .registerVariable('node', 'dyn')
    .registerVariable('pod', 'dyn')
    .registerVariable('container', 'dyn')
    .registerFunction('Now(): google.protobuf.Timestamp', () => fns().now())
    .registerFunction('now(): google.protobuf.Timestamp', () => fns().now())
    .registerFunction('Quantity(string): double', parseQuantity)
    .registerFunction('string.Quantity(): double', parseQuantity)
    .registerFunction('SinceSecond(dyn): double', sinceSecond)
    .registerFunction('dyn.SinceSecond(): double', sinceSecond)
    .registerFunction('UnixSecond(dyn): double', (t: unknown) => toMillis(t) / 1000)
    .registerFunction('dyn.UnixSecond(): double', (t: unknown) => toMillis(t) / 1000)
    .registerFunction('dyn.Usage(string): double', (o: unknown, r: string) => usage(o, r))
    .registerFunction('dyn.Usage(string, string): double', (o: unknown, r: string, c: string) => usage(o, r, c))
    .registerFunction('dyn.CumulativeUsage(string): double', (o: unknown, r: string) => cumulativeUsage(o, r))
    .registerFunction('dyn.CumulativeUsage(string, string): double', (o: unknown, r: string, c: string) => cumulativeUsage(o, r, c))
    .registerFunction('StartedContainersTotal(dyn): double', startedContainersTotal)
    .registerFunction('dyn.StartedContainersTotal(): double', startedContainersTotal);
}

let environment: Environment | undefined;
const cache = new Map<string, MetricsProgram>();

/** Parses and type-checks a metrics expression (cached); throws CelCompileError. */
export function compileMetricsCel(expression: string): MetricsProgram {
  const hit = cache.get(expression);
  if (hit !== undefined) return hit;
  environment ??= buildEnvironment();
  const evaluate = checkAndParse(environment, expression);
  const program: MetricsProgram = {
    expression,
    evaluate(data, functions) {
      const previous = current;
      current = functions;
      try {
        return evaluate({ node: toCelValue(data.node ?? null), pod: toCelValue(data.pod ?? null), container: toCelValue(data.container ?? null) });
      } finally {
        current = previous;
      }
    },
  };
  cache.set(expression, program);
  return program;
}

/** kwok's EvaluateFloat64: numbers (int, uint, double) as a float; anything else is an error. */
export function metricsAsFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'bigint') return Number((v as { value: bigint }).value);
  throw new Error(`CEL result is ${v === null ? 'null' : typeof v}, want a number`);
}

/** kwok's EvaluateString: strings as they are, numbers and booleans printed. */
export function metricsAsString(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (typeof v === 'object' && v !== null && typeof (v as { value?: unknown }).value === 'bigint') return String((v as { value: bigint }).value);
  throw new Error(`CEL result is ${v === null ? 'null' : typeof v}, want a string`);
}
