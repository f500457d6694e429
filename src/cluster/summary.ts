/**
 * What `get components` and `get clusters -o wide` show: each component's process state and
 * readiness, and a cluster-level verdict derived from them.
 */
import { loadRuntime } from '../../runtimes/load.js';
import type { ComponentState, ComponentStatus } from '../../runtimes/runtime.js';
import type { Component } from '../components/index.js';
import { RealExecutor } from '../exec/real-executor.js';
import { silentLogger } from '../util/log.js';
import { assertManageable, loadCluster } from './record.js';
import { probeOnce, type ProbeResult } from './probe.js';

export interface ComponentSummary {
  name: string;
  state: ComponentState;
  ready: boolean;
  /** Process or container id, when running or crashed. */
  id?: string;
  ports: number[];
  /** Why it is not ready (probe answer), empty when ready. */
  detail: string;
}

/** kwokctl's words, so scripts that parse `get clusters -o wide` keep working. */
export type ClusterStatus = 'Ready' | 'NotReady' | 'Stopped';

export interface ClusterSummary {
  name: string;
  runtime: string;
  status: ClusterStatus;
  ready: number;
  total: number;
  apiserver: string;
  components: ComponentSummary[];
}

/** Ready when every component is ready, Stopped when none runs, NotReady in between. */
export function clusterStatus(components: readonly Pick<ComponentSummary, 'state' | 'ready'>[]): ClusterStatus {
  if (components.length > 0 && components.every((c) => c.ready)) return 'Ready';
  if (components.every((c) => c.state !== 'running')) return 'Stopped';
  return 'NotReady';
}

/**
 * What the runtime's word alone says of a component's readiness, or undefined when its probe is
 * to be asked. One that is not running cannot be ready (no probe needed to say so). One with a
 * probe is asked (a live answer); one without is ready as the runtime says where it can tell
 * (kind's pods, whose status lags a probe by seconds), as the wait counts it.
 */
export function runtimeVerdict(component: Pick<Component, 'probe'>, status: ComponentStatus | undefined): ProbeResult | undefined {
  const state = status?.state ?? 'stopped';
  if (state !== 'running') return { ok: false, detail: state };
  if (!component.probe && status?.ready === false) return { ok: false, detail: 'not ready' };
  return undefined;
}

export async function summarizeCluster(workdir: string, name: string, probeTimeoutMs = 1000): Promise<ClusterSummary> {
  const { record, paths } = await loadCluster(workdir, name);
  assertManageable(record);
  const runtime = await loadRuntime(record.runtime);
  const ctx = { cluster: name, paths, executor: new RealExecutor(silentLogger), logger: silentLogger, programs: new Map(Object.entries(record.programs)), clusterComponents: record.components };
  const statuses = await runtime.status(record.components, ctx);
  const components = await Promise.all(
    record.components.map(async (component): Promise<ComponentSummary> => {
      const status = statuses.find((s) => s.name === component.name);
      const state = status?.state ?? 'stopped';
      const probe = runtimeVerdict(component, status) ?? (await probeOnce(component.probe, paths, probeTimeoutMs));
      return {
        name: component.name,
        state,
        ready: probe.ok,
        ...(status?.id ? { id: status.id } : {}),
        ports: component.ports.map((p) => p.port),
        detail: probe.ok ? '' : probe.detail,
      };
    }),
  );
  const apiserver = record.components.find((c) => c.name === 'kube-apiserver');
  return {
    name,
    runtime: record.runtime,
    status: clusterStatus(components),
    ready: components.filter((c) => c.ready).length,
    total: components.length,
    apiserver: apiserver ? `https://127.0.0.1:${apiserver.probe?.port ?? 0}` : '',
    components,
  };
}

/** kwokctl's `get clusters -o wide` row: NAME, READY (ready/total), STATUS. */
export function kwokctlClusterRow(summary: Pick<ClusterSummary, 'name' | 'ready' | 'total' | 'status'>): string[] {
  return [summary.name, `${summary.ready}/${summary.total}`, summary.total === 0 ? 'Unknown' : summary.status];
}

/** kwokctl's words for a component in `get components -o wide`. */
export function kwokctlComponentStatus(component: Pick<ComponentSummary, 'state' | 'ready'>): 'Ready' | 'NotReady' | 'Stopped' {
  if (component.state !== 'running') return 'Stopped';
  return component.ready ? 'Ready' : 'NotReady';
}

/** Columns padded to their widest cell, three spaces apart, as kwokctl prints its tables. */
export function renderTable(rows: readonly (readonly string[])[]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('   ').trimEnd()).join('\n');
}
