/**
 * Start order and readiness: a fake runtime and a fake probe log every start and every answer in
 * one list, so the tests read what happened in which order (no clocks involved).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Writable } from 'node:stream';
import { startComponents, startConditions } from '../../../src/cluster/start-components.js';
import type { ProbeResult } from '../../../src/cluster/probe.js';
import { buildComponents, startGroups, type Component, type ComponentName, type ComponentPort, type ReadinessProbe } from '../../../src/components/index.js';
import type { Executor } from '../../../src/exec/executor.js';
import { silentLogger } from '../../../src/util/log.js';
import type { ComponentStatus, PortEndpoint, Runtime, RuntimeContext, RuntimeInfo } from '../../../runtimes/runtime.js';
import { defaultOptionValues } from '../../../src/config/options.js';
import { sampleSpec } from '../components/sample-spec.js';

const binarySpec = () => sampleSpec({ options: { ...defaultOptionValues(), runtime: 'binary' } });
const components = buildComponents(binarySpec());
const byPort = new Map(components.filter((c) => c.probe).map((c) => [c.probe!.port, c.name]));

class LoggingRuntime implements Runtime {
  constructor(private readonly log: string[]) {}
  info(): RuntimeInfo { return { name: 'binary', mode: 'native' }; }
  async check(): Promise<void> {}
  async start(group: readonly Component[]): Promise<void> { for (const c of group) this.log.push(`start ${c.name}`); }
  async stop(): Promise<void> {}
  async status(cs: readonly Component[]): Promise<ComponentStatus[]> { return cs.map((c) => ({ name: c.name, state: 'running' })); }
  async logs(_c: ComponentName, _ctx: RuntimeContext, out: Writable): Promise<void> { out.end(); }
  endpoint(_c: Component, port: ComponentPort | number): PortEndpoint { return { kind: 'address', host: '127.0.0.1', port: typeof port === 'number' ? port : port.port }; }
  async remove(): Promise<void> {}
}

/**
 * Each component answers from its own script, one entry per probe (the last repeats): 'refused'
 * (not listening), a status code (it serves; 200 is ready). A component whose dependents it
 * waits for is not probed before it was started.
 */
function scriptedProbe(log: string[], scripts: Partial<Record<ComponentName, Array<'refused' | number>>>) {
  const calls = new Map<ComponentName, number>();
  return async (probe: ReadinessProbe | undefined): Promise<ProbeResult> => {
    const name = byPort.get(probe!.port)!;
    assert.ok(log.includes(`start ${name}`), `${name} probed before it was started`);
    const n = calls.get(name) ?? 0;
    calls.set(name, n + 1);
    const script = scripts[name] ?? [200];
    const answer = script[Math.min(n, script.length - 1)]!;
    log.push(`${name} ${answer}`);
    return answer === 'refused' ? { ok: false, detail: 'connect ECONNREFUSED' } : { ok: answer === 200, detail: String(answer), status: answer };
  };
}

function context(): RuntimeContext {
  const spec = sampleSpec();
  // startComponents asks the executor only whether this is a dry run; the runtime is fake.
  const executor = { dryRun: false } as unknown as Executor;
  return { cluster: spec.name, paths: spec.paths, executor, logger: silentLogger, programs: new Map() };
}

test('etcd and kube-apiserver start at once; the apiserver retries etcd, so nothing waits for etcd', () => {
  const [first, second] = startGroups(components);
  assert.deepEqual(first!.map((c) => c.name), ['etcd']);
  assert.deepEqual(startConditions(second!, components), { ready: new Set(), serving: new Set() });
});

test('the components that retry the apiserver start once it serves, not once it is ready', () => {
  const group = startGroups(components).at(-1)!;
  assert.deepEqual(group.map((c) => c.name), ['kube-controller-manager', 'kube-scheduler', 'kwok-controller']);
  assert.deepEqual(startConditions(group, components), { ready: new Set(), serving: new Set(['kube-apiserver']) });
});

test('in containers the dependents are started at once (their images and containers overlap the apiserver\'s start-up)', () => {
  const docker = buildComponents(sampleSpec({ options: { ...defaultOptionValues(), runtime: 'docker' } }));
  assert.deepEqual(startConditions(startGroups(docker).at(-1)!, docker), { ready: new Set(), serving: new Set() });
});

test('a component that does not retry its links (a user\'s) still waits until they are ready', () => {
  const user: Component = { name: 'exporter', program: { path: '/bin/x' }, args: [], env: {}, links: ['kube-apiserver'], ports: [] };
  assert.deepEqual(startConditions([user], [...components, user]), { ready: new Set(['kube-apiserver']), serving: new Set() });
});

test('start: the apiserver is started without waiting for etcd, the rest once the apiserver answers, and the wait ends when all are ready', async () => {
  const log: string[] = [];
  const probe = scriptedProbe(log, { etcd: ['refused', 503, 200], 'kube-apiserver': ['refused', 'refused', 500, 500, 200] });
  await startComponents(new LoggingRuntime(log), components, context(), { paths: binarySpec().paths, waitMs: 60_000, probe });
  const at = (line: string) => {
    const i = log.indexOf(line);
    assert.ok(i >= 0, `${line} happened: ${log.join(' | ')}`);
    return i;
  };
  // Nobody waited for etcd: the apiserver started before etcd was asked anything.
  assert.ok(at('start kube-apiserver') < log.findIndex((l) => l.startsWith('etcd ')));
  // The last group started after the apiserver's first answer (500: serving, not ready) ...
  const firstAnswer = at('kube-apiserver 500');
  for (const name of ['kube-controller-manager', 'kube-scheduler', 'kwok-controller']) {
    assert.ok(at(`start ${name}`) > firstAnswer, `${name} started before the apiserver served`);
    assert.ok(at(`start ${name}`) < at('kube-apiserver 200'), `${name} waited for the apiserver to be ready`);
  }
  // ... and the wait ended only once every component answered 200.
  for (const c of components) assert.ok(log.includes(`${c.name} 200`), `${c.name} was found ready`);
  assert.equal(log.at(-1)?.endsWith(' 200'), true);
});

test('start: an apiserver found ready while its dependents waited for it to serve is not probed again', async () => {
  const log: string[] = [];
  const probe = scriptedProbe(log, { 'kube-apiserver': [200] });
  const ready: ComponentName[] = [];
  await startComponents(new LoggingRuntime(log), components, context(), { paths: binarySpec().paths, waitMs: 60_000, probe, onReady: (n) => ready.push(n) });
  assert.equal(log.filter((l) => l === 'kube-apiserver 200').length, 1);
  assert.deepEqual([...ready].sort(), components.map((c) => c.name).sort());
});
