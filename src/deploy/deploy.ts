/**
 * `kwokts deploy`: the in-cluster manifests, printed or applied to an existing cluster. Applying
 * talks to the API directly (server-side apply), so no kubectl is needed; the kubeconfig is
 * checked up front so a wrong path or context is one clear error before anything is sent.
 */
import { existsSync, statSync } from 'node:fs';
import { buildConnection, KubeconfigError, readRestConfig, type RestConfig, HttpKubeClient, defaultRetry } from '../kube/index.js';
import { PreflightError, UsageError } from '../util/errors.js';
import { applyObjects } from './apply.js';
import { deployObjects, renderDeployManifests } from './manifests.js';
import type { RenderDeployOptions } from './manifests.js';

export interface DeployOptions extends RenderDeployOptions {
  kubeconfig: string;
  context?: string;
  onApplied?: (reference: string) => void;
  signal?: AbortSignal;
}

/** Load the kubeconfig and pick the context, refusing anything that cannot work. */
export function loadDeployKubeconfig(path: string, context: string | undefined): RestConfig {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new PreflightError(`kubeconfig ${path} does not exist`, { hint: 'pass --kubeconfig with the path of the target cluster\'s kubeconfig' });
  }
  try {
    return readRestConfig(path, context === '' ? undefined : context);
  } catch (error) {
    if (error instanceof KubeconfigError && error.contexts && context) {
      throw new UsageError(`context "${context}" is not in kubeconfig ${path}`, { hint: error.contexts.length > 0 ? `its contexts: ${error.contexts.join(', ')}` : 'the file has no contexts' });
    }
    const detail = error instanceof KubeconfigError ? error.detail : (error as Error).message;
    throw new UsageError(`kubeconfig ${path} is not valid: ${detail.split('\n')[0]}`, { hint: 'check the file with `kubectl --kubeconfig <file> config view`, or pass --context', cause: error });
  }
}

/** Apply the manifests; returns the applied objects' references. */
export async function deploy(options: DeployOptions): Promise<string[]> {
  const text = renderDeployManifests(options);
  const objects = deployObjects(text);
  const config = loadDeployKubeconfig(options.kubeconfig, options.context);
  const server = config.server.href.replace(/\/$/, '');
  let connection;
  try {
    connection = await buildConnection(config);
  } catch (error) {
    throw new UsageError(`kubeconfig ${options.kubeconfig}: ${(error as Error).message}`, { cause: error });
  }
  // One retry: a user waiting at a terminal should hear about an unreachable server in seconds.
  const client = new HttpKubeClient(connection, { retry: { ...defaultRetry, retries: 1 }, requestTimeoutMs: 30_000, userAgent: 'kwokts-deploy' });
  try {
    return await applyObjects(client, server, objects, {
      ...(options.onApplied ? { onApplied: options.onApplied } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } finally {
    client.close();
  }
}
