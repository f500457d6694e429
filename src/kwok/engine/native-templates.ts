/**
 * The two templates the controller renders for every node and every pod, as TypeScript.
 *
 * kwokts's default `node-initialize` and `pod-ready` templates (templates/stages/node-fast.yaml,
 * pod-fast.yaml) run once per node and once per pod. Through the Go template engine and the YAML
 * reader that is a large part of the controller's main thread while nodes come up and while pods
 * start (CPU profiles of `npm run bench -- controller` show it). Here each is a function that
 * builds the same JSON value directly; `--write-shortcuts=false` turns them off.
 *
 * A function is found by the SHA-256 of the trimmed template text, so it serves only that exact
 * text, wherever the stage came from; any other template goes through the engine. Each function
 * declines (returns undefined) an object it is not sure to render as the engine would: a field of
 * an unexpected type (where Go's template would fail or print something odd), a string that is not
 * printable ASCII (where Quote's escaping and the YAML reader might not give it back as it was),
 * or a resource quantity of an unusual shape. The engine then renders it, errors included.
 * test/unit/kwok/engine/native-templates.test.ts renders both ways over many objects and expects
 * the same value, and fails when a built-in template's text changes without its hash here.
 */
import { createHash } from 'node:crypto';
import type { FuncMap } from '../../gocompat/gotpl/index.js';
import { isJsonObject as isObject, type JsonObject as Json } from './json-value.js';

/** Renders a template's JSON value for `object`, or undefined to let the template engine do it. */
export type NativeRender = (object: unknown, funcs: FuncMap) => unknown;

/** What Quote writes and the YAML reader reads back unchanged: printable ASCII. */
const PLAIN = /^[\x20-\x7e]*$/;
/** A resource quantity in the shapes Kubernetes writes (1k, 1Ti, 250m, 4, 1.5, 1e3). */
const QUANTITY = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+|[numkMGTPE]i?|Ki)?$/;
/** A resource name such as cpu, hugepages-2Mi or example.com/gpu. */
const RESOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** Thrown inside a renderer to decline the object; caught in nativeRender. */
class Decline extends Error {}
const decline = (): never => {
  throw new Decline();
};

/** A string Quote and the YAML reader return unchanged. */
function plain(v: unknown): string {
  return typeof v === 'string' && PLAIN.test(v) ? v : decline();
}

/** A field Go's template reads as a string or as missing (`or .x ""`, `with .x`): "" when missing. */
function optionalPlain(v: unknown): string {
  return v === undefined || v === null ? '' : plain(v);
}

/** `range x` over a list of maps; a missing list ranges over nothing. */
function listOfObjects(v: unknown): Json[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return decline();
  for (const item of v) if (!isObject(item)) decline();
  return v as Json[];
}

function call(funcs: FuncMap, name: string, ...args: unknown[]): unknown {
  const fn = funcs[name];
  return typeof fn === 'function' ? fn(...args) : decline();
}

/** A function's list of IPs (NodeIPsWith, PodIPsWith). */
function ipList(v: unknown): string[] {
  if (!Array.isArray(v)) return decline();
  return v.map(plain);
}

function ipEntries(ips: readonly string[]): Json[] {
  return ips.map((ip) => ({ ip }));
}

/**
 * A map the template reads fields of (`.spec.containers`): a missing key reads as empty, but Go's
 * template fails on a field of a key that is present and null.
 */
function fieldsOf(v: unknown): Json {
  return isObject(v) ? v : v === undefined ? {} : decline();
}

/** A YAML list key with nothing under it reads as null. */
const listOrNull = (items: Json[]): Json[] | null => (items.length === 0 ? null : items);

/** templates/stages/pod-fast.yaml, stage pod-ready. */
function renderPodReady(object: unknown, funcs: FuncMap): unknown {
  if (!isObject(object)) return decline();
  const podSpec = fieldsOf(object.spec);
  const meta = fieldsOf(object.metadata);
  const now = plain(call(funcs, 'Now'));
  const conditions: Json[] = [
    { type: 'Initialized', status: 'True', lastTransitionTime: now },
    { type: 'Ready', status: 'True', lastTransitionTime: now },
    { type: 'ContainersReady', status: 'True', lastTransitionTime: now },
  ];
  for (const gate of listOfObjects(podSpec.readinessGates)) conditions.push({ type: plain(gate.conditionType), status: 'True', lastTransitionTime: now });
  const containerStatuses = listOfObjects(podSpec.containers).map((c) => ({
    name: plain(c.name),
    image: plain(c.image),
    ready: true,
    restartCount: 0,
    state: { running: { startedAt: now } },
  }));
  const initContainerStatuses = listOfObjects(podSpec.initContainers).map((c) => {
    const name = plain(c.name);
    const image = plain(c.image);
    return optionalPlain(c.restartPolicy) === 'Always'
      ? { name, image, ready: true, restartCount: 0, started: true, state: { running: { startedAt: now } } }
      : { name, image, ready: true, restartCount: 0, state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } } };
  });
  const out: Json = { conditions, containerStatuses: listOrNull(containerStatuses), initContainerStatuses: listOrNull(initContainerStatuses) };
  // Both functions take nodeName as a Go string: a pod without one makes the template fail.
  const nodeName = typeof podSpec.nodeName === 'string' ? podSpec.nodeName : decline();
  const hostIPs = ipList(call(funcs, 'NodeIPsWith', nodeName));
  if (hostIPs.length > 0) {
    out.hostIP = hostIPs[0];
    out.hostIPs = ipEntries(hostIPs);
  }
  // `or .spec.hostNetwork false` must give the function a bool.
  const hostNetwork = podSpec.hostNetwork === undefined || podSpec.hostNetwork === null ? false : typeof podSpec.hostNetwork === 'boolean' ? podSpec.hostNetwork : decline();
  const podIPs = ipList(call(funcs, 'PodIPsWith', nodeName, hostNetwork, optionalPlain(meta.uid), optionalPlain(meta.name), optionalPlain(meta.namespace)));
  if (podIPs.length > 0) {
    out.podIP = podIPs[0];
    out.podIPs = ipEntries(podIPs);
  }
  out.phase = 'Running';
  out.startTime = now;
  return out;
}

/** What the template writes when the node has no resource list of its own. */
const defaultResources = (): Json => ({ cpu: '1k', memory: '1Ti', pods: '1M' });

/** `{{ with .status.X }}{{ YAML . 1 }}{{ else }}defaults{{ end }}` for a resource list; keys in Go's sorted order. */
function resourceList(v: unknown): Json {
  if (v === undefined || v === null) return defaultResources();
  if (!isObject(v)) return decline();
  const keys = Object.keys(v);
  if (keys.length === 0) return defaultResources();
  const out: Json = {};
  for (const key of keys.sort()) {
    const value = v[key];
    if (!RESOURCE_NAME.test(key) || typeof value !== 'string' || !QUANTITY.test(value)) decline();
    out[key] = value;
  }
  return out;
}

const NODE_INFO_DEFAULTS: ReadonlyArray<[string, string | null]> = [
  ['architecture', 'amd64'],
  ['bootID', ''],
  ['containerRuntimeVersion', null],
  ['kernelVersion', null],
  ['kubeProxyVersion', null],
  ['kubeletVersion', null],
  ['machineID', ''],
  ['operatingSystem', 'linux'],
  ['osImage', ''],
  ['systemUUID', ''],
];

/** templates/stages/node-fast.yaml, stage node-initialize. */
function renderNodeInitialize(object: unknown, funcs: FuncMap): unknown {
  if (!isObject(object)) return decline();
  const meta = fieldsOf(object.metadata);
  const nodeStatus = fieldsOf(object.status);
  const now = plain(call(funcs, 'Now'));
  const transition = optionalPlain(meta.creationTimestamp) || now;
  const conditions = listOfObjects(call(funcs, 'NodeConditions')).map((c) => ({
    type: plain(c.type),
    status: plain(c.status),
    reason: plain(c.reason),
    message: plain(c.message),
    lastHeartbeatTime: now,
    lastTransitionTime: transition,
  }));
  const out: Json = { conditions: listOrNull(conditions) };
  let internalIP = false;
  let hostname = false;
  for (const address of listOfObjects(nodeStatus.addresses)) {
    // Go's eq fails on a missing type; any string compares.
    if (typeof address.type !== 'string') decline();
    if (address.type === 'InternalIP') internalIP = true;
    if (address.type === 'Hostname') hostname = true;
  }
  if (!(internalIP && hostname)) {
    const addresses: Json[] = [];
    if (!internalIP) {
      const ip = plain(call(funcs, 'NodeIP'));
      if (ip !== '') addresses.push({ type: 'InternalIP', address: ip });
    }
    if (!hostname) {
      const name = plain(call(funcs, 'NodeName'));
      if (name !== '') addresses.push({ type: 'Hostname', address: name });
    }
    out.addresses = listOrNull(addresses);
  }
  const port = call(funcs, 'NodePort');
  if (typeof port !== 'number' || !Number.isSafeInteger(port)) decline();
  if (port !== 0) out.daemonEndpoints = { kubeletEndpoint: { Port: port } };
  out.allocatable = resourceList(nodeStatus.allocatable);
  out.capacity = resourceList(nodeStatus.capacity);
  const version = `kwok-${plain(call(funcs, 'Version'))}`;
  const info = fieldsOf(nodeStatus.nodeInfo);
  const nodeInfo: Json = {};
  for (const [field, fallback] of NODE_INFO_DEFAULTS) nodeInfo[field] = optionalPlain(info[field]) || (fallback ?? version);
  out.nodeInfo = nodeInfo;
  out.phase = 'Running';
  return out;
}

/** SHA-256 of each built-in template's trimmed text → its function. */
const RENDERERS: ReadonlyMap<string, NativeRender> = new Map([
  ['215eeff39f6571399c7eb6b2bf8342a1d954abd677e512808626ab65109c3fa2', renderPodReady],
  ['ad7fa3647a76bb342f852b37ad78ce0a0e7de54ad728bb5ab472bebc3af2adfa', renderNodeInitialize],
]);

const CACHE_LIMIT = 1024;
const byTemplate = new Map<string, NativeRender | null>();

/** The function for this exact template text (as a stage holds it, untrimmed), if there is one. */
export function nativeRendererFor(template: string): NativeRender | undefined {
  let found = byTemplate.get(template);
  if (found === undefined) {
    if (byTemplate.size >= CACHE_LIMIT) byTemplate.clear();
    found = RENDERERS.get(createHash('sha256').update(template.trim()).digest('hex')) ?? null;
    byTemplate.set(template, found);
  }
  return found ?? undefined;
}

/**
 * The template's value for `object` from its function, or undefined when there is none or it
 * declines. A function that throws (a template function missing or failing) also hands the object
 * to the engine, which reports the error as it always has.
 */
export function nativeRender(template: string, object: unknown, funcs: FuncMap): unknown {
  const render = nativeRendererFor(template);
  if (render === undefined) return undefined;
  try {
    return render(object, funcs);
  } catch {
    return undefined;
  }
}
