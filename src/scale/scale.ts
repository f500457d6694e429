/**
 * `scale`: make the number of labelled copies of a resource equal to --replicas, through the
 * API with bounded concurrency over keep-alive connections (10,000 pods in seconds, not minutes).
 */
import pLimit from 'p-limit';
import { buildConnection, HttpKubeClient, loadKubeConfig, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { UsageError } from '../util/errors.js';
import { silentLogger } from '../util/log.js';
import { planScale } from './plan.js';
import { applyParams, renderObject, SCALE_LABEL, serialName, type KwokctlResource } from './resource.js';

export interface ScaleOptions {
  resource: KwokctlResource;
  /** Name prefix of the copies (default: the resource name). */
  name: string;
  replicas: number;
  params: readonly string[];
  namespace: string;
  serialLength: number;
  concurrency?: number;
  dryRun?: boolean;
  onProgress?: (message: string) => void;
  signal?: AbortSignal;
}

export interface ScaleResult {
  ref: ResourceRef;
  before: number;
  created: string[];
  deleted: string[];
}

export function validateScale(options: Pick<ScaleOptions, 'replicas' | 'serialLength'>): void {
  if (!Number.isInteger(options.replicas) || options.replicas < 0) throw new UsageError(`--replicas must be a whole number ≥ 0, not ${options.replicas}`);
  if (!Number.isInteger(options.serialLength) || options.serialLength < 0) throw new UsageError(`--serial-length must be a whole number ≥ 0, not ${options.serialLength}`);
  if (options.serialLength === 0 && options.replicas > 1) throw new UsageError('--serial-length 0 (no number suffix) allows at most one replica', { hint: 'use --serial-length 6 (the default) for several copies' });
}

export async function clientForKubeconfig(kubeconfig: string, maxSockets: number): Promise<KubeClient> {
  const { config } = loadKubeConfig({ kubeconfig, logger: silentLogger });
  return new HttpKubeClient(await buildConnection(config), { maxSockets });
}

export async function scale(client: KubeClient, options: ScaleOptions): Promise<ScaleResult> {
  validateScale(options);
  const parameters = applyParams(options.resource.parameters, options.params);
  const render = (index: number): KubeObject => renderObject(options.resource, parameters, { name: options.name, namespace: options.namespace, index, serialLength: options.serialLength });
  // Rendering one copy up front tells the kind, and fails on a bad template before any change.
  const sample = render(0);
  const ref = await client.resolve(sample.apiVersion!, sample.kind!);
  const namespace = ref.namespaced ? (sample.metadata.namespace ?? options.namespace) : undefined;
  const existing: Array<{ name: string; creationTimestamp?: string }> = [];
  const terminating = new Set<string>();
  let token: string | undefined;
  do {
    const page = await client.list(ref, { labelSelector: `${SCALE_LABEL}=${options.name}`, limit: 500, ...(namespace ? { namespace } : {}), ...(token ? { continue: token } : {}) }, options.signal);
    for (const item of page.items) {
      // Copies being deleted (graceful pod deletion) do not count, but their names are not free yet.
      if (item.metadata.deletionTimestamp) terminating.add(item.metadata.name ?? '');
      else existing.push({ name: item.metadata.name ?? '', ...(item.metadata.creationTimestamp ? { creationTimestamp: item.metadata.creationTimestamp } : {}) });
    }
    token = page.continue;
  } while (token);
  const plan = planScale(existing, options.replicas, (i) => serialName(options.name, i, options.serialLength), terminating);
  const result: ScaleResult = { ref, before: existing.length, created: [], deleted: [] };
  if (options.dryRun) {
    result.created = plan.create.map((i) => serialName(options.name, i, options.serialLength));
    result.deleted = plan.delete;
    return result;
  }
  const limit = pLimit(options.concurrency ?? 32);
  const total = plan.create.length + plan.delete.length;
  let done = 0;
  let lastReport = 0;
  const tick = (): void => {
    done++;
    const now = Date.now();
    if (options.onProgress && (done === total || now - lastReport > 1000)) {
      lastReport = now;
      options.onProgress(`${done}/${total} ${plan.create.length > 0 ? 'created' : 'deleted'}`);
    }
  };
  await Promise.all([
    ...plan.create.map((index) =>
      limit(async () => {
        options.signal?.throwIfAborted();
        const object = index === 0 ? sample : render(index);
        await client.create(ref, object, namespace ? { namespace } : {});
        result.created.push(object.metadata.name!);
        tick();
      }),
    ),
    ...plan.delete.map((name) =>
      limit(async () => {
        options.signal?.throwIfAborted();
        await client.delete(ref, { name, ...(namespace ? { namespace } : {}) });
        result.deleted.push(name);
        tick();
      }),
    ),
  ]);
  return result;
}
