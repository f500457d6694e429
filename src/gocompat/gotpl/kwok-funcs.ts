/**
 * kwok's own template functions (pkg/utils/gotpl/funcs.go) and the names of the per-object
 * functions its controllers add at render time.
 */
import { FuncError } from './errors.js';
import { sprint } from './fmt.js';
import { marshalJson } from './go-json.js';
import { GoTime, LOCAL, RFC3339_NANO, UTC, type GoLocation } from './go-time.js';
import { goQuote } from './quote.js';
import { typed, type FuncMap, type TemplateFunc } from './signature.js';
import { marshalYaml } from './yaml-encode.js';

export interface KwokFuncOptions {
  /** Clock for Now (default: the system clock). */
  now?: () => Date;
  /** What StartTime reports (default: when this module was loaded). */
  startTime?: Date;
  /** kwok's version without the leading "v" (default "0.8.0", the kwok release kwokts follows). */
  version?: string;
  /** Zone for Now and StartTime: Go formats time.Now() in the local zone (default "Local"). */
  timeZone?: 'Local' | 'UTC';
}

export const DEFAULT_KWOK_VERSION = '0.8.0';

/** Functions kwok's node and pod controllers supply per object; templates may always call them. */
export const kwokObjectFuncNames = [
  'NodeIP',
  'NodeName',
  'NodePort',
  'PodIP',
  'NodeIPWith',
  'NodeIPsWith',
  'PodIPWith',
  'PodIPsWith',
] as const;

const moduleStart = GoTime.now(LOCAL);

/** kwok's Quote: JSON, and when the JSON is not a string, the JSON text as a quoted string. */
export function kwokQuote(v: unknown): string {
  let data: string;
  try {
    data = marshalJson(v);
  } catch {
    return goQuote(sprint([v]));
  }
  if (data.length === 0) return '""';
  if (data[0] === '"') return data;
  return goQuote(data);
}

/** kwok's YAML: the value as YAML; with indent n > 0, on a new line and every line prefixed by 2n spaces. */
export function kwokYaml(v: unknown, ...indent: unknown[]): string {
  const data = marshalYaml(v);
  if (indent.length === 1 && (indent[0] as number) > 0) {
    const pad = ' '.repeat((indent[0] as number) * 2);
    return ('\n' + data).replaceAll('\n', '\n' + pad);
  }
  return data;
}

/** The five kubelet node conditions, as kwok's NodeConditions returns them (corev1.NodeCondition as JSON). */
function nodeConditions(): Record<string, unknown>[] {
  const cond = (type: string, status: string, reason: string, message: string): Record<string, unknown> => ({
    type,
    status,
    lastHeartbeatTime: null,
    lastTransitionTime: null,
    reason,
    message,
  });
  return [
    cond('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
    cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
    cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
    cond('NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'),
  ];
}

export function kwokFuncs(options: KwokFuncOptions = {}): FuncMap {
  const loc: GoLocation = options.timeZone === 'UTC' ? UTC : LOCAL;
  const start = options.startTime === undefined ? moduleStart.in(loc) : GoTime.fromDate(options.startTime, loc);
  const startText = start.format(RFC3339_NANO);
  const version = options.version ?? DEFAULT_KWOK_VERSION;
  const clock = options.now;
  return {
    Quote: typed(['any'], kwokQuote),
    Now: typed([], () => GoTime.now(loc, clock).format(RFC3339_NANO)),
    StartTime: typed([], () => startText),
    YAML: typed(['any'], kwokYaml, 'int'),
    Version: typed([], () => version),
    NodeConditions: typed([], nodeConditions),
  };
}

/**
 * Stand-ins that let templates calling kwok's per-object functions parse; the controller supplies
 * the real implementations when it executes the template.
 */
export function kwokObjectFuncPlaceholders(): FuncMap {
  const funcs: FuncMap = {};
  for (const name of kwokObjectFuncNames) {
    const placeholder: TemplateFunc = () => {
      throw new FuncError(`${name} is provided by the kwok controller at render time and was not supplied`);
    };
    funcs[name] = placeholder;
  }
  return funcs;
}
