/**
 * The controller's own metrics: process CPU and memory, managed nodes and pods, stage plays by
 * stage and result, queue depth and API request latency (patch latency is the verb="PATCH" series).
 */
import { readdirSync } from 'node:fs';
import type { ControllerMetrics, PlayResult } from '../controllers/controller-metrics.js';
import type { ControllerStats } from '../controllers/kwok-controller.js';
import type { ResourceRef } from '../../kube/index.js';
import { Counter, Gauge, Histogram, MetricsRegistry } from './metrics-registry.js';

const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class KwokMetrics implements ControllerMetrics {
  readonly registry = new MetricsRegistry();
  private readonly plays: Counter;
  private readonly retries: Counter;
  private readonly playSeconds: Histogram;
  private readonly requestSeconds: Histogram;
  private stats: () => ControllerStats | undefined = () => undefined;

  constructor(startTimeMs: number = Date.now() - process.uptime() * 1000) {
    const r = this.registry;
    r.register(new Gauge('process_cpu_seconds_total', 'Total user and system CPU time spent in seconds.', () => {
      const { user, system } = process.cpuUsage();
      return [[{}, (user + system) / 1e6]];
    }, 'counter'));
    r.register(new Gauge('process_resident_memory_bytes', 'Resident memory size in bytes.', () => [[{}, process.memoryUsage.rss()]]));
    r.register(new Gauge('process_heap_bytes', 'V8 heap used in bytes.', () => [[{}, process.memoryUsage().heapUsed]]));
    r.register(new Gauge('process_start_time_seconds', 'Start time of the process since unix epoch in seconds.', () => [[{}, Math.floor(startTimeMs / 1000)]]));
    r.register(new Gauge('process_open_fds', 'Number of open file descriptors.', () => {
      try {
        return [[{}, readdirSync('/proc/self/fd').length]];
      } catch {
        return [];
      }
    }));
    r.register(new Gauge('kwok_managed_nodes', 'Nodes managed by this controller.', () => {
      const s = this.stats();
      return s ? [[{}, s.managedNodes]] : [];
    }));
    r.register(new Gauge('kwok_managed_pods', 'Pods on writable managed nodes.', () => {
      const s = this.stats();
      return s ? [[{}, s.managedPods]] : [];
    }));
    r.register(new Gauge('kwok_node_leases_held', 'Node leases held by this controller.', () => {
      const s = this.stats();
      return s ? [[{}, s.heldLeases]] : [];
    }));
    r.register(new Gauge('kwok_queue_depth', 'Stage jobs waiting for their delay or a worker.', () => {
      const s = this.stats();
      return s ? Object.entries(s.queueDepth).map(([kind, depth]): [Record<string, string>, number] => [{ kind }, depth]) : [];
    }));
    this.plays = r.register(new Counter('kwok_stage_plays_total', 'Stages played, by kind, stage and result.'));
    this.retries = r.register(new Counter('kwok_stage_retries_total', 'Failed stage plays queued to be played again, by kind and stage.'));
    this.playSeconds = r.register(new Histogram('kwok_stage_play_duration_seconds', 'Time to play one stage (render and API calls).', latencyBuckets));
    this.requestSeconds = r.register(new Histogram('kwok_api_request_duration_seconds', 'Kubernetes API request latency by verb and resource.', latencyBuckets));
  }

  /** Where gauges read controller state from (set once the controller exists). */
  bindStats(stats: () => ControllerStats): void {
    this.stats = stats;
  }

  stagePlayed(kind: string, stage: string, result: PlayResult, seconds: number): void {
    this.plays.inc({ kind, stage, result });
    this.playSeconds.observe({ kind, stage }, seconds);
  }

  stageRetried(kind: string, stage: string): void {
    this.retries.inc({ kind, stage });
  }

  apiRequest(method: string, ref: ResourceRef | undefined, status: number, seconds: number): void {
    this.requestSeconds.observe({ verb: method, resource: ref?.resource ?? '', code: String(status) }, seconds);
  }

  render(): string {
    return this.registry.render();
  }
}
