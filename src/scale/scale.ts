/**
 * `scale`: make the number of labelled copies of a resource equal to --replicas, through the
 * API with bounded concurrency over keep-alive connections (10,000 pods in seconds, not minutes);
 * nodes and pods are created at the pace the cluster makes them Ready (pacer.ts).
 */
import { buildConnection, HttpKubeClient, KubeApiError, loadKubeConfig, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { NotFoundError, OperationError } from '../util/errors.js';
import { silentLogger } from '../util/log.js';
import { validateScale } from './limits.js';
import { planScale } from './plan.js';
import { forEachLimited, Pacer, Turns, type PacerOptions } from './pacer.js';
import { readyTest, watchReadiness } from './readiness.js';
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
  /** The cluster's name, for the commands a hint suggests. */
  cluster?: string;
  /**
   * Keep the copies created but not yet Ready to about a second of the cluster's pace (see
   * pacer.ts). On by default; off creates as fast as the apiserver answers.
   */
  pace?: boolean;
  /** Pacing rules, for tests and benchmarks. */
  pacer?: PacerOptions;
}

export interface ScaleResult {
  ref: ResourceRef;
  before: number;
  created: string[];
  deleted: string[];
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
  // Listing a missing namespace answers an empty list; only the first create would find out (404).
  if (namespace !== undefined) await requireNamespace(client, namespace, options);
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
  const concurrency = options.concurrency ?? 32;
  const total = plan.create.length + plan.delete.length;
  let done = 0;
  let lastReport = 0;
  const isReady = readyTest(ref);
  const pacer = options.pace !== false && isReady && plan.create.length > 0 ? new Pacer(options.pacer) : undefined;
  let readyCount = 0;
  const tick = (): void => {
    done++;
    const now = Date.now();
    if (options.onProgress && (done === total || now - lastReport > 1000)) {
      lastReport = now;
      const paced = pacer ? `, ${readyCount} Ready, ${pacer.backlog} not yet` : '';
      options.onProgress(`${done}/${total} ${plan.create.length > 0 ? 'created' : 'deleted'}${paced}`);
    }
  };
  if (plan.create.length > 0) {
    const turns = pacer ? new Turns() : undefined;
    const stopWatch = pacer && turns && isReady
      ? watchReadiness({ client, ref, name: options.name, ...(namespace ? { namespace } : {}), isReady, onReady: (name) => {
        const before = pacer.backlog;
        pacer.ready(name);
        if (pacer.backlog < before) readyCount++;
        turns.wake();
      } }, options.signal)
      : undefined;
    try {
      await forEachLimited(plan.create, concurrency, async (index) => {
        const object = index === 0 ? sample : render(index);
        const name = object.metadata.name!;
        if (pacer && turns) {
          // Checked and taken in one step, so creators woken together cannot all pass one free place.
          await turns.waitFor(() => {
            const wasUnpaced = pacer.unpaced;
            if (!pacer.mayStart()) return false;
            pacer.started(name);
            if (pacer.unpaced && !wasUnpaced) options.onProgress?.(`no ${ref.kind} became Ready for ${(pacer.stallMs / 1000).toFixed(0)}s: creating without pacing until one does`);
            return true;
          }, options.signal);
        }
        options.signal?.throwIfAborted();
        try {
          await explainApiError(`cannot create ${ref.kind} ${name}`, () => client.create(ref, object, { ...(namespace ? { namespace } : {}), ...(options.signal ? { signal: options.signal } : {}) }));
        } catch (error) {
          pacer?.abandoned(name);
          turns?.wake();
          throw error;
        }
        result.created.push(name);
        tick();
      });
    } finally {
      stopWatch?.();
    }
  }
  // Deleting is not paced: nothing waits on a copy to go away.
  await forEachLimited(plan.delete, concurrency, async (name) => {
    options.signal?.throwIfAborted();
    await explainApiError(`cannot delete ${ref.kind} ${name}`, () => client.delete(ref, { name, ...(namespace ? { namespace } : {}), ...(options.signal ? { signal: options.signal } : {}) }));
    result.deleted.push(name);
    tick();
  });
  return result;
}

const namespacesResource: ResourceRef = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false };

async function requireNamespace(client: KubeClient, namespace: string, options: Pick<ScaleOptions, 'cluster' | 'signal'>): Promise<void> {
  const found = await client.get(namespacesResource, { name: namespace }, options.signal);
  if (found) return;
  const kwokts = `kwokts${options.cluster && options.cluster !== 'kwok' ? ` --name ${options.cluster}` : ''}`;
  throw new NotFoundError(`namespace ${namespace} does not exist${options.cluster ? ` in cluster ${options.cluster}` : ''}`, {
    hint: `create it with \`${kwokts} kubectl create namespace ${namespace}\`, or choose another with -n`,
  });
}

/**
 * The apiserver refusing a copy (the namespace deleted meanwhile, an object a --param made
 * invalid, a missing permission) is the cluster's answer, said in one line, not a bug of ours.
 */
async function explainApiError<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    // "POST /api/v1/…: 422 Invalid: Pod "x" is invalid: …": the status and the apiserver's words.
    const answer = error.message.replace(/^[A-Z]+ \S+: /, '');
    throw new OperationError(`${what}: ${answer}`, {
      ...(error.status === 422 ? { hint: 'check the template and the --param values' } : {}),
      cause: error,
    });
  }
}
