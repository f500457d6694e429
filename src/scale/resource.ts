/**
 * KwokctlResource: a named Go template plus JSON parameters, from which `scale` renders numbered
 * copies. Built-in ones ship in templates/resources/; a user's document of the same name wins.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseK8sYaml } from '../gocompat/yaml/index.js';
import { evalJq } from '../gocompat/jq/index.js';
import { renderTemplate, typed, type FuncMap } from '../gocompat/gotpl/index.js';
import { formatIp, parseCidr, parseIp } from '../util/ip-address.js';
import type { KubeObject } from '../kube/index.js';
import { UsageError } from '../util/errors.js';
import { templatePath } from '../util/package-root.js';

export interface KwokctlResource {
  name: string;
  parameters: unknown;
  template: string;
  /** Where it came from, for error messages. */
  source: string;
}

function fromDocument(doc: Record<string, unknown>, source: string): KwokctlResource {
  const name = (doc.metadata as { name?: unknown } | undefined)?.name;
  if (typeof name !== 'string' || name === '') throw new UsageError(`${source}: KwokctlResource has no metadata.name`);
  if (typeof doc.template !== 'string' || doc.template.trim() === '') throw new UsageError(`${source}: KwokctlResource ${name} has no template`);
  return { name, parameters: doc.parameters ?? {}, template: doc.template, source };
}

function builtInResources(): KwokctlResource[] {
  const dir = templatePath('resources');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => fromDocument(parseK8sYaml(readFileSync(`${dir}/${f}`, 'utf8')) as Record<string, unknown>, `templates/resources/${f}`));
}

/** The resource named `kind`: the user's (last one given wins) or the built-in one. */
export function findResource(kind: string, userDocuments: ReadonlyArray<Record<string, unknown>>): KwokctlResource {
  const user = userDocuments.map((d) => fromDocument(d, 'config')).filter((r) => r.name === kind);
  const found = user.at(-1) ?? builtInResources().find((r) => r.name === kind);
  if (found) return found;
  const known = [...new Set([...builtInResources().map((r) => r.name), ...userDocuments.map((d) => fromDocument(d, 'config').name)])].sort();
  throw new UsageError(`no resource template for ${JSON.stringify(kind)}`, { hint: `known: ${known.join(', ')}; add a KwokctlResource named ${kind} with -c FILE` });
}

/** Apply each `--param` jq expression to the parameters, in order; each must yield one value. */
export function applyParams(parameters: unknown, params: readonly string[]): unknown {
  let current = parameters;
  for (const param of params) {
    let outputs: unknown[];
    try {
      outputs = evalJq(param, current);
    } catch (error) {
      throw new UsageError(`invalid --param ${JSON.stringify(param)}: ${(error as Error).message}`, { hint: "use a jq assignment such as '.allocatable.cpu=\"4\"'" });
    }
    if (outputs.length !== 1) {
      throw new UsageError(`--param ${JSON.stringify(param)} produced ${outputs.length} values, not one`, { hint: "use a jq assignment such as '.allocatable.cpu=\"4\"'" });
    }
    current = outputs[0];
  }
  return current;
}

/** kwokctl's numbering: <name>-000000; serial length 0 means the bare name (one replica only). */
export function serialName(name: string, index: number, serialLength: number): string {
  return serialLength <= 0 ? name : `${name}-${String(index).padStart(serialLength, '0')}`;
}

/** The n-th address after `ip` (IPv4 or IPv6). */
export function addIp(ip: string, n: number): string {
  const parsed = parseIp(ip);
  if (!parsed) throw new Error(`AddIP: invalid IP ${JSON.stringify(ip)}`);
  return formatIp({ family: parsed.family, value: parsed.value + BigInt(n) });
}

/** The n-th network of the same size after `cidr`: 10.0.0.0/24 + 2 = 10.0.2.0/24. */
export function addCidr(cidr: string, n: number): string {
  const parsed = parseCidr(cidr);
  if (!parsed) throw new Error(`AddCIDR: invalid CIDR ${JSON.stringify(cidr)}`);
  const size = 1n << BigInt((parsed.family === 4 ? 32 : 128) - parsed.prefix);
  return `${formatIp({ family: parsed.family, value: parsed.base + size * BigInt(n) })}/${parsed.prefix}`;
}

export interface RenderOptions {
  name: string;
  namespace: string;
  index: number;
  serialLength: number;
}

export const SCALE_LABEL = 'kwok.x-k8s.io/kwokctl-scale';

/** One numbered object, labelled so a later scale finds it. */
export function renderObject(resource: KwokctlResource, parameters: unknown, options: RenderOptions): KubeObject {
  const name = serialName(options.name, options.index, options.serialLength);
  const funcs: FuncMap = {
    Name: typed([], () => name),
    Namespace: typed([], () => options.namespace),
    Index: typed([], () => options.index),
    AddIP: typed(['string', 'int'], (ip: unknown, n: unknown) => addIp(String(ip), Number(n))),
    AddCIDR: typed(['string', 'int'], (cidr: unknown, n: unknown) => addCidr(String(cidr), Number(n))),
  };
  let text: string;
  try {
    text = renderTemplate(resource.template, parameters, funcs);
  } catch (error) {
    throw new UsageError(`${resource.source}: rendering ${resource.name} failed: ${(error as Error).message}`);
  }
  let object: unknown;
  try {
    object = parseK8sYaml(text);
  } catch (error) {
    throw new UsageError(`${resource.source}: ${resource.name} renders invalid YAML: ${(error as Error).message}`);
  }
  if (typeof object !== 'object' || object === null || typeof (object as KubeObject).kind !== 'string' || typeof (object as KubeObject).apiVersion !== 'string') {
    throw new UsageError(`${resource.source}: ${resource.name} does not render a Kubernetes object (apiVersion and kind)`);
  }
  const result = object as KubeObject;
  result.metadata = { ...(result.metadata ?? {}), name, labels: { ...(result.metadata?.labels ?? {}), [SCALE_LABEL]: options.name } };
  return result;
}
