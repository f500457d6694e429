/**
 * Applies manifests through the API with server-side apply (field manager "kwokts"), in order,
 * waiting for a CustomResourceDefinition to be established before the objects after it (the
 * Stages need the Stage CRD). Re-applying is harmless: unchanged objects stay as they are.
 */
import { KubeApiError, sleep, type KubeClient, type KubeObject, type ResourceRef } from '../kube/index.js';
import { OperationError, PreflightError, TimeoutError } from '../util/errors.js';

export const DEPLOY_FIELD_MANAGER = 'kwokts';

export interface ApplyOptions {
  /** Told after each object, kubectl style: "clusterrole.rbac.authorization.k8s.io/kwok-controller". */
  onApplied?: (reference: string) => void;
  /** How long to wait for a CRD to be established. */
  crdTimeoutMs?: number;
  signal?: AbortSignal;
}

/** kubectl's "resource.group/name" for messages. */
export function describeObject(ref: ResourceRef, object: KubeObject): string {
  const singular = ref.kind.toLowerCase();
  return `${ref.group ? `${singular}.${ref.group}` : singular}/${object.metadata.name ?? ''}`;
}

function isConnectionFailure(error: unknown): boolean {
  if (error instanceof KubeApiError) return error.status === 0;
  return typeof (error as { code?: unknown } | null)?.code === 'string';
}

/** Map an API failure to what the user must do about it. */
function explain(error: unknown, what: string, server: string): Error {
  const message = (error as Error).message;
  if (isConnectionFailure(error)) {
    return new PreflightError(`cannot reach the API server at ${server}: ${message}`, { hint: 'check --kubeconfig/--context and that the cluster is running', cause: error });
  }
  if (error instanceof KubeApiError && error.status === 401) {
    return new PreflightError(`the API server at ${server} rejected the kubeconfig's credentials`, { hint: 'check --kubeconfig/--context; the token or certificate may have expired', cause: error });
  }
  if (error instanceof KubeApiError && error.status === 403) {
    return new OperationError(`applying ${what} was forbidden: ${message}`, { hint: 'deploy creates a CRD and cluster RBAC; use a kubeconfig with cluster-admin rights', cause: error });
  }
  return new OperationError(`applying ${what} failed: ${message}`, { cause: error });
}

async function waitForEstablished(client: KubeClient, ref: ResourceRef, name: string, timeoutMs: number, signal?: AbortSignal): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crd = await client.get(ref, { name }, signal);
    const conditions = ((crd?.['status'] as { conditions?: { type?: string; status?: string }[] } | undefined)?.conditions ?? []);
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    if (Date.now() >= deadline) throw new TimeoutError(`CustomResourceDefinition ${name} was not established within ${Math.round(timeoutMs / 1000)}s`);
    await sleep(200, signal);
  }
}

/** Apply every object in order; returns their kubectl-style references. */
export async function applyObjects(client: KubeClient, server: string, objects: readonly KubeObject[], options: ApplyOptions = {}): Promise<string[]> {
  const applied: string[] = [];
  for (const object of objects) {
    const what = `${object.kind}/${object.metadata.name ?? ''}`;
    let ref: ResourceRef;
    try {
      ref = await client.resolve(object.apiVersion ?? '', object.kind ?? '');
      const namespace = ref.namespaced ? object.metadata.namespace : undefined;
      await client.patch(ref, {
        name: object.metadata.name ?? '',
        ...(namespace ? { namespace } : {}),
        patchType: 'apply',
        body: object,
        fieldManager: DEPLOY_FIELD_MANAGER,
        force: true,
      });
      if (ref.kind === 'CustomResourceDefinition') await waitForEstablished(client, ref, object.metadata.name ?? '', options.crdTimeoutMs ?? 30_000, options.signal);
    } catch (error) {
      if (error instanceof TimeoutError || options.signal?.aborted) throw error;
      throw explain(error, what, server);
    }
    const reference = describeObject(ref, object);
    applied.push(reference);
    options.onApplied?.(reference);
  }
  return applied;
}
