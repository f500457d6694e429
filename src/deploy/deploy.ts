/**
 * `kwokts deploy`: the in-cluster manifests, printed or applied to an existing cluster. Applying
 * talks to the API directly (server-side apply), so no kubectl is needed; the kubeconfig is
 * checked up front so a wrong path or context is one clear error before anything is sent.
 */
import { existsSync, statSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import { buildConnection } from '../kwok/client/connection.js';
import { HttpKubeClient } from '../kwok/client/http-client.js';
import { defaultRetry } from '../kwok/client/retry.js';
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
export function loadDeployKubeconfig(path: string, context: string | undefined): KubeConfig {
  if (!existsSync(path) || !statSync(path).isFile()) {
    throw new PreflightError(`kubeconfig ${path} does not exist`, { hint: 'pass --kubeconfig with the path of the target cluster\'s kubeconfig' });
  }
  const config = new KubeConfig();
  try {
    config.loadFromFile(path);
  } catch (error) {
    throw new UsageError(`kubeconfig ${path} is not valid: ${(error as Error).message.split('\n')[0]}`, { hint: 'check the file with `kubectl --kubeconfig <file> config view`', cause: error });
  }
  if (context !== undefined && context !== '') {
    if (!config.getContextObject(context)) {
      const known = config.getContexts().map((c) => c.name);
      throw new UsageError(`context "${context}" is not in kubeconfig ${path}`, { hint: known.length > 0 ? `its contexts: ${known.join(', ')}` : 'the file has no contexts' });
    }
    config.setCurrentContext(context);
  }
  if (!config.getCurrentCluster()?.server) {
    throw new UsageError(`kubeconfig ${path} has no current context with a cluster server`, { hint: 'pass --context, or set current-context in the file' });
  }
  return config;
}

/** Apply the manifests; returns the applied objects' references. */
export async function deploy(options: DeployOptions): Promise<string[]> {
  const text = renderDeployManifests(options);
  const objects = deployObjects(text);
  const config = loadDeployKubeconfig(options.kubeconfig, options.context);
  const server = config.getCurrentCluster()?.server ?? '';
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
