/** Runs a KwokController against the fake client and offers polling helpers. */
import { createLogger, LogLevel } from '../../../../src/util/log.js';
import type { Logger } from '../../../../src/util/log.js';
import { KwokController } from '../../../../src/kwok/controllers/kwok-controller.js';
import type { KwokControllerConfig } from '../../../../src/kwok/controllers/kwok-controller.js';
import { buildNodeSelection } from '../../../../src/kwok/controllers/node-selection.js';
import type { ManageMode } from '../../../../src/kwok/controllers/node-selection.js';
import type { KubeObject } from '../../../../src/kube/client/types.js';
import { FakeKubeClient } from './fake-kube-client.js';
import { fakeCatalogFactory } from './fake-stages.js';
import type { FakeStage } from './fake-stages.js';

export interface Harness {
  client: FakeKubeClient;
  controller: KwokController;
  logs: string[];
  stop(): Promise<void>;
}

export interface HarnessOptions extends Partial<Omit<KwokControllerConfig, 'client' | 'selection' | 'stages' | 'logger'>> {
  client?: FakeKubeClient;
  mode?: ManageMode;
  stages: FakeStage[];
}

export function captureLogger(logs: string[]): Logger {
  return createLogger(LogLevel.DEBUG, (line) => logs.push(line));
}

export function startHarness(options: HarnessOptions): Harness {
  const client = options.client ?? new FakeKubeClient();
  const logs: string[] = [];
  const controller = new KwokController({
    client,
    selection: buildNodeSelection(options.mode ?? { kind: 'all' }),
    catalogFactory: options.catalogFactory ?? fakeCatalogFactory,
    ...(options.watchStageCrds ? {} : { stages: fakeCatalogFactory(options.stages) }),
    watchStageCrds: options.watchStageCrds ?? false,
    identity: options.identity ?? 'test-controller',
    nodeIP: options.nodeIP ?? '196.168.0.1',
    nodeName: options.nodeName ?? 'kwok-controller',
    nodePort: options.nodePort ?? 10247,
    cidr: options.cidr ?? '10.0.0.1/24',
    nodeLeaseDurationSeconds: options.nodeLeaseDurationSeconds ?? 0,
    nodeLeaseParallelism: options.nodeLeaseParallelism ?? 4,
    nodePlayStageParallelism: options.nodePlayStageParallelism ?? 4,
    podPlayStageParallelism: options.podPlayStageParallelism ?? 4,
    logger: captureLogger(logs),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.shard ? { shard: options.shard } : {}),
  });
  const abort = new AbortController();
  const running = controller.run(abort.signal);
  return {
    client,
    controller,
    logs,
    async stop() {
      abort.abort();
      await running;
    },
  };
}

export async function eventually(check: () => boolean, what: string, timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function settle(ms = 50): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

export function node(name: string, extra: { labels?: Record<string, string>; annotations?: Record<string, string>; podCIDR?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, ...(extra.labels ? { labels: extra.labels } : {}), ...(extra.annotations ? { annotations: extra.annotations } : {}) },
    spec: extra.podCIDR ? { podCIDR: extra.podCIDR, podCIDRs: [extra.podCIDR] } : {},
  };
}

export function pod(name: string, nodeName: string, extra: { hostNetwork?: boolean; status?: Record<string, unknown>; namespace?: string } = {}): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: extra.namespace ?? 'default' },
    spec: { nodeName, containers: [{ name: 'c', image: 'fake' }], ...(extra.hostNetwork ? { hostNetwork: true } : {}) },
    status: extra.status ?? { phase: 'Pending' },
  };
}

export function phaseOf(object: KubeObject | undefined): string | undefined {
  return (object?.['status'] as { phase?: string } | undefined)?.phase;
}

export function podIpOf(object: KubeObject | undefined): string | undefined {
  return (object?.['status'] as { podIP?: string } | undefined)?.podIP;
}
