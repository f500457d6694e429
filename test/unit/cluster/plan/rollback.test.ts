/**
 * Rollback at every step of a create: a recording executor, a fake runtime and fake effects log
 * every effect in one list, and a fault is injected at each effect in turn. Whatever fails, the
 * effects before it are undone, newest first, and nothing after it happens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Writable } from 'node:stream';
import { applyPlan } from '../../../../src/cluster/apply-plan.js';
import type { CreatePlan } from '../../../../src/cluster/create-plan.js';
import type { CreateEffects, PlanStep, StepId } from '../../../../src/cluster/create-steps.js';
import type { Component, ComponentName, ComponentPort } from '../../../../src/components/index.js';
import type { CallSpec, Executor, KillSpec, MkdirOptions, RunSpec, SpawnSpec, WriteFileOptions } from '../../../../src/exec/executor.js';
import { silentLogger } from '../../../../src/util/log.js';
import { OperationError, TimeoutError } from '../../../../src/util/errors.js';
import type { ComponentStatus, PortEndpoint, Runtime, RuntimeContext, RuntimeInfo } from '../../../../runtimes/runtime.js';
import { ComponentExitedError, NotReadyError } from '../../../../src/cluster/wait.js';
import { planFor } from './plan-harness.js';

/** One log of everything that happens; `failAt` makes the n-th effect (1-based) throw, once. */
class Recorder {
  readonly log: string[] = [];
  /** What every component's log says (FakeRuntime.logs). */
  componentLog = 'boom: the last line of its log\n';
  private effects = 0;
  constructor(private failAt = 0) {}
  mark(line: string): void {
    this.log.push(line);
  }
  async effect(line: string): Promise<void> {
    this.effects++;
    if (this.effects === this.failAt) {
      this.log.push(`FAIL ${line}`);
      throw new Error(`injected fault at ${line}`);
    }
    this.log.push(line);
  }
}

class RecordingExecutor implements Executor {
  readonly dryRun = false;
  constructor(private readonly r: Recorder) {}
  mkdirp(dir: string, _o?: MkdirOptions): Promise<void> { return this.r.effect(`mkdir ${dir}`); }
  writeFile(path: string, _c: string, _o?: WriteFileOptions): Promise<void> { return this.r.effect(`write ${path}`); }
  remove(path: string): Promise<void> { return this.r.effect(`rm ${path}`); }
  async spawnDetached(spec: SpawnSpec): Promise<number> { await this.r.effect(`spawn ${spec.command}`); return 1; }
  kill(spec: KillSpec): Promise<void> { return this.r.effect(`kill ${spec.pidFile}`); }
  async killMarked(match: { marker: string } | { markerPrefix: string }): Promise<number[]> { await this.r.effect(`kill marked ${'marker' in match ? match.marker : `${match.markerPrefix}*`}`); return []; }
  async run(spec: RunSpec): Promise<string> { await this.r.effect(`run ${[spec.command, ...spec.args].join(' ')}`); return ''; }
  /** As the real executor: the in-process work is performed (and logs its own effects). */
  call<T>(spec: CallSpec<T>): Promise<T> { return spec.perform(); }
  async note(): Promise<void> {}
}

/** A runtime that makes nothing: it logs what it is asked, and fails where the recorder says. */
class FakeRuntime implements Runtime {
  constructor(private readonly r: Recorder) {}
  info(): RuntimeInfo { return { name: 'binary', mode: 'native' }; }
  check(): Promise<void> { return this.r.effect('runtime check'); }
  async start(components: readonly Component[]): Promise<void> { for (const c of components) await this.r.effect(`start ${c.name}`); }
  stop(components: readonly Component[]): Promise<void> { return this.r.effect(`stop ${components.map((c) => c.name).join(',')}`); }
  async status(components: readonly Component[]): Promise<ComponentStatus[]> { return components.map((c) => ({ name: c.name, state: 'running' })); }
  async logs(_c: ComponentName, _ctx: RuntimeContext, out: Writable): Promise<void> { out.end(this.r.componentLog); }
  endpoint(_c: Component, port: ComponentPort | number): PortEndpoint { return { kind: 'address', host: '127.0.0.1', port: typeof port === 'number' ? port : port.port }; }
  remove(): Promise<void> { return this.r.effect('runtime remove'); }
}

function fakeEffects(r: Recorder): CreateEffects {
  return {
    resolvePrograms: async () => { await r.effect('resolve programs'); return new Map(['kubectl', 'etcdctl', 'etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'metrics-server'].map((n) => [n, `/bin/${n}`])); },
    checkPrograms: async () => undefined,
    writePki: async () => r.effect('write pki'),
    startComponents: async (runtime, components, ctx) => { for (const c of components) await runtime.start([c], ctx); },
    mergeContext: async (file) => { await r.effect(`merge context into ${file}`); return { name: 'kwok-golden', written: 'x' } as never; },
    restoreKubeconfig: async (file) => r.effect(`restore ${file}`),
    ensureManifest: async (source) => {
      await r.effect(`fetch ${source}`);
      return 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: podgroups.scheduling.x-k8s.io}\n';
    },
  };
}

/** The plan with every step and undo announcing itself in the log (the plan itself stays as it is). */
function traced(plan: CreatePlan, r: Recorder): CreatePlan {
  const steps = plan.steps.map((step): PlanStep => ({
    ...step,
    ...(step.undo ? { undo: { label: step.undo.label, run: (env) => (r.mark(`undo ${step.id}`), step.undo!.run(env)) } } : {}),
    run: (env, update) => (r.mark(`begin ${step.id}`), step.run(env, update)),
  }));
  return { ...plan, steps };
}

/**
 * Every optional step: CRDs with objects, metrics-server's APIService, scheduler-plugins'
 * manifests (create refuses it on the binary runtime; the plan itself does not care), the user's kubeconfig.
 */
const fullPlan = (r = new Recorder()): Promise<CreatePlan> => planFor({ runtime: 'binary', runtimeObject: new FakeRuntime(r), flags: { enable: ['metrics-server', 'scheduler-plugins'], enableCRDs: ['Stage'] } });

async function run(failAt: number, options: { retain?: boolean } = {}): Promise<{ log: string[]; error?: unknown }> {
  const r = new Recorder(failAt);
  const plan = traced(await fullPlan(r), r);
  try {
    await applyPlan(plan, { executor: new RecordingExecutor(r), logger: silentLogger, signal: new AbortController().signal, retain: options.retain ?? false, effects: fakeEffects(r) });
    return { log: r.log };
  } catch (error) {
    return { log: r.log, error };
  }
}

const isEffect = (line: string): boolean => !/^(begin|undo) /.test(line);

test('the plan has every step, in order, each either undoable or undone by an earlier one', async () => {
  const plan = await fullPlan();
  assert.deepEqual(plan.steps.map((s) => s.id), ['resolve-programs', 'make-directories', 'write-pki', 'write-files', 'fetch-manifests', 'write-record', 'start-components', 'install-crds', 'register-metrics-server', 'apply-scheduler-plugins-manifests', 'add-context']);
  const ids = plan.steps.map((s) => s.id);
  for (const step of plan.steps) {
    if (step.id === 'resolve-programs') continue; // the shared cache: kept on purpose
    assert.ok(step.undo || (step.undoneBy && ids.indexOf(step.undoneBy) < ids.indexOf(step.id) && plan.steps.find((s) => s.id === step.undoneBy)?.undo), `${step.id} is undone`);
  }
  assert.ok(Object.isFrozen(plan) && Object.isFrozen(plan.steps) && plan.steps.every((s) => Object.isFrozen(s)), 'the plan is immutable');
});

test('a fault at any effect undoes everything before it in reverse and does nothing after it', async () => {
  const clean = await run(0);
  assert.equal(clean.error, undefined);
  const effects = clean.log.filter(isEffect);
  assert.ok(effects.length > 20, `a full create has many effects (${effects.length})`);
  const stepOf = new Map<number, StepId>();
  let current: StepId | undefined;
  let n = 0;
  for (const line of clean.log) {
    if (line.startsWith('begin ')) current = line.slice(6) as StepId;
    else if (isEffect(line)) stepOf.set(++n, current!);
  }
  const plan = await fullPlan();
  const order = plan.steps.map((s) => s.id);
  const undoOf = new Map(plan.steps.filter((s) => s.undo).map((s) => [s.id, s.undo!.label]));
  for (let failAt = 1; failAt <= effects.length; failAt++) {
    const { log, error } = await run(failAt);
    assert.match(String((error as Error)?.message), /injected fault/, `fault ${failAt} fails the create`);
    const failIndex = log.findIndex((l) => l.startsWith('FAIL '));
    // Before the fault: exactly the clean run's log.
    assert.deepEqual(log.slice(0, failIndex), clean.log.slice(0, failIndex), `fault ${failAt}: same start`);
    // After it: only undos, of the steps begun so far that have one, newest first.
    const failedStep = stepOf.get(failAt);
    const begun = failedStep ? order.slice(0, order.indexOf(failedStep) + 1) : [];
    const expectedUndos = begun.filter((id) => undoOf.has(id)).reverse().map((id) => `undo ${id}`);
    const after = log.slice(failIndex + 1);
    assert.deepEqual(after.filter((l) => l.startsWith('undo ')), expectedUndos, `fault ${failAt} in ${failedStep}: undos`);
    assert.ok(!after.some((l) => l.startsWith('begin ')), `fault ${failAt}: no step after the failing one`);
    // Every effect made is covered: its step's undo ran, or the undo of the step that owns it.
    for (const id of begun) {
      const owner = plan.steps.find((s) => s.id === id)!;
      const undoing = owner.undo ? id : owner.undoneBy;
      if (undoing) assert.ok(after.includes(`undo ${undoing}`), `fault ${failAt}: ${id} undone by ${undoing}`);
    }
    // The undos' own effects are the real cleanup: the directory removed, the components stopped and removed.
    if (begun.includes('make-directories')) assert.equal(after.at(-1), `rm ${plan.paths.root}`);
    if (begun.includes('start-components')) assert.ok(after.includes('runtime remove'), `fault ${failAt}: runtime objects removed`);
  }
});

test('--retain keeps what was made: no undo runs', async () => {
  const { log, error } = await run(20, { retain: true });
  assert.ok(error);
  assert.ok(!log.some((l) => l.startsWith('undo ')), log.join('\n'));
});

test('a component that dies during start-up fails the create with the tail of its log, and is rolled back', async () => {
  const r = new Recorder();
  const plan = traced(await fullPlan(r), r);
  const effects: CreateEffects = { ...fakeEffects(r), startComponents: async () => { throw new ComponentExitedError('kube-apiserver'); } };
  const error = await applyPlan(plan, { executor: new RecordingExecutor(r), logger: silentLogger, signal: new AbortController().signal, retain: false, effects }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof OperationError);
  assert.match(error.message, /^create failed: kube-apiserver exited during start-up: boom: the last line of its log$/);
  assert.deepEqual(r.log.filter((l) => l.startsWith('undo ')), ['undo start-components', 'undo make-directories']);
});

/** The end of etcd's log when it cannot make its WAL on a full disk (JSON lines, then Go's panic). */
const ETCD_DISK_FULL_LOG = [
  '{"level":"info","ts":"2026-01-01T00:00:00.000Z","caller":"etcdserver/bootstrap.go:94","msg":"bootstrapping"}',
  '{"level":"warn","ts":"2026-01-01T00:00:00.001Z","caller":"wal/wal.go:147","msg":"failed to preallocate an initial WAL file","error":"no space left on device"}',
  '{"level":"panic","ts":"2026-01-01T00:00:00.002Z","caller":"etcdserver/bootstrap.go:663","msg":"failed to create WAL","error":"no space left on device","stacktrace":"go.etcd.io/etcd/server/v3/etcdserver.bootstrapNewWAL"}',
  'panic: failed to create WAL',
  '',
  'goroutine 1 [running]:',
  'go.uber.org/zap/zapcore.CheckWriteAction.OnWrite(0x1?, 0x129f21b?, {0x0?, 0x0?, 0xca6e3ab8b40?})',
  '\tgo.uber.org/zap@v1.27.0/zapcore/entry.go:196 +0x54',
  'main.main()',
  '\tgo.etcd.io/etcd/server/v3@v3.6.10/main.go:31 +0x28',
  '',
].join('\n');

test("the first component to fail is named with its log's reason on the error line; a full disk's hint says to free space", async () => {
  const r = new Recorder();
  r.componentLog = ETCD_DISK_FULL_LOG;
  const plan = traced(await fullPlan(r), r);
  const effects: CreateEffects = { ...fakeEffects(r), startComponents: async () => { throw new ComponentExitedError('etcd'); } };
  const error = await applyPlan(plan, { executor: new RecordingExecutor(r), logger: silentLogger, signal: new AbortController().signal, retain: false, effects }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof OperationError);
  assert.equal(error.message.split('\n')[0], 'create failed: etcd exited during start-up: panic: failed to create WAL: no space left on device');
  assert.match(error.message, /\nits log ends with:\n {2}/, 'its last lines follow, under the one line');
  assert.match(error.hint ?? '', /^the cluster was rolled back; free space on the file system that holds \S+ \(see `df -h \S+`\), then try again$/);
  assert.deepEqual(r.log.filter((l) => l.startsWith('undo ')), ['undo start-components', 'undo make-directories']);
});

test('a component not ready by the deadline fails the create with the tail of its log, read before the rollback', async () => {
  const r = new Recorder();
  const plan = traced(await fullPlan(r), r);
  const effects: CreateEffects = { ...fakeEffects(r), startComponents: async () => { throw new NotReadyError(['kube-apiserver'], 'kube-apiserver (connect ECONNREFUSED 127.0.0.1:1)'); } };
  const error = await applyPlan(plan, { executor: new RecordingExecutor(r), logger: silentLogger, signal: new AbortController().signal, retain: false, effects }).then(() => undefined, (e: unknown) => e);
  assert.ok(error instanceof TimeoutError);
  assert.equal(error.exitCode, 5);
  assert.match(error.message, /^not ready before the deadline: kube-apiserver \(connect ECONNREFUSED 127\.0\.0\.1:1\)\nkube-apiserver's log ends with:\n {2}boom: the last line of its log$/);
  assert.match(error.hint ?? '', /rolled back.*--retain/);
  assert.deepEqual(r.log.filter((l) => l.startsWith('undo ')), ['undo start-components', 'undo make-directories']);
});

test('with --retain, the hint says the cluster was kept (as the warning does), never that it was rolled back', async () => {
  const failures = [() => new ComponentExitedError('kube-apiserver'), () => new NotReadyError(['kube-apiserver'], 'kube-apiserver (connect ECONNREFUSED 127.0.0.1:1)')];
  for (const failure of failures) {
    for (const retain of [true, false]) {
      const r = new Recorder();
      const plan = traced(await fullPlan(r), r);
      const warnings: string[] = [];
      const logger = { ...silentLogger, warn: (m: string) => void warnings.push(m) };
      const effects: CreateEffects = { ...fakeEffects(r), startComponents: async () => { throw failure(); } };
      const error = await applyPlan(plan, { executor: new RecordingExecutor(r), logger, signal: new AbortController().signal, retain, effects }).then(() => undefined, (e: unknown) => e);
      const hint = (error as OperationError | TimeoutError).hint ?? '';
      const what = `${failure().constructor.name}, retain ${retain}`;
      if (retain) {
        assert.match(warnings.join('\n'), /keeping the failed cluster golden/, what);
        assert.match(hint, /^the cluster was kept \(--retain\): .*`kwokts --name golden logs .*`.*`kwokts --name golden delete cluster`$/, what);
        assert.doesNotMatch(hint, /rolled back|rerun with --retain/, what);
        assert.deepEqual(r.log.filter((l) => l.startsWith('undo ')), [], what);
      } else {
        assert.match(hint, /^the cluster was rolled back; .*--retain/, what);
        assert.notEqual(r.log.filter((l) => l.startsWith('undo ')).length, 0, what);
      }
    }
  }
});

test('an interrupt during a step rolls back what was made and reports the interrupt', async () => {
  const r = new Recorder();
  const abort = new AbortController();
  const plan = traced(await fullPlan(r), r);
  const effects: CreateEffects = { ...fakeEffects(r), writePki: async () => { await r.effect('write pki'); abort.abort(); } };
  const error = await applyPlan(plan, { executor: new RecordingExecutor(r), logger: silentLogger, signal: abort.signal, retain: false, effects }).then(() => undefined, (e: unknown) => e);
  assert.match(String((error as Error).message), /interrupted by SIGINT/);
  assert.ok(!r.log.includes('begin write-files'), 'no step starts after the interrupt');
  assert.deepEqual(r.log.filter((l) => l.startsWith('undo ')), ['undo make-directories']);
});
