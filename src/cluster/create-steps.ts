/**
 * The steps of a create, in order, each with its undo: what the plan (create-plan.ts) hands to
 * apply-plan.ts. A step reads the plan and what earlier steps learnt (ApplyState), and makes its
 * effects through the executor, the runtime or the few effects tests replace (CreateEffects).
 */
import { buildClusterEntry, mergeContext, restoreKubeconfig, type KubeconfigSnapshot } from '../kube/index.js';
import { METRICS_API_SERVICE, schedulerPluginsManifestObjects } from '../components/index.js';
import { ensureManifest } from '../artifacts/manifests.js';
import { parseK8sYamlDocuments, renderYamlDocuments } from '../gocompat/yaml/index.js';
import type { Executor } from '../exec/executor.js';
import type { Logger } from '../util/log.js';
import type { RuntimeContext } from '../../runtimes/runtime.js';
import { applyManifest, installCrds, type ServedCrdKind } from './crds.js';
import type { CreatePlan } from './create-plan.js';
import { contextName, type ClusterPaths } from '../naming/naming.js';
import { cacheDirOf } from './artifact-request.js';
import { checkPrograms, resolvePrograms } from './programs.js';
import { renderRecord } from './record.js';
import { startComponents, type WaitFor } from './start-components.js';
import { writePki } from './write-pki.js';

/** The steps a create can have, in the order they run (the optional ones only when needed). */
export const STEP_IDS = [
  'resolve-programs',
  'make-directories',
  'write-pki',
  'write-files',
  'fetch-manifests',
  'write-record',
  'start-components',
  'install-crds',
  'register-metrics-server',
  'apply-scheduler-plugins-manifests',
  'add-context',
] as const;
export type StepId = (typeof STEP_IDS)[number];

/** What the steps learn while they run: the programs resolved, the user's kubeconfig before our context. */
export interface ApplyState {
  programs: Map<string, string>;
  userSnapshot?: KubeconfigSnapshot;
}

/** The effects behind the steps that do not go through the Executor alone; tests replace them. */
export interface CreateEffects {
  resolvePrograms: typeof resolvePrograms;
  checkPrograms: typeof checkPrograms;
  writePki: typeof writePki;
  startComponents: typeof startComponents;
  mergeContext: typeof mergeContext;
  restoreKubeconfig: typeof restoreKubeconfig;
  ensureManifest: typeof ensureManifest;
}

export const REAL_EFFECTS: CreateEffects = { resolvePrograms, checkPrograms, writePki, startComponents, mergeContext, restoreKubeconfig, ensureManifest };

/** Everything a step may use while it runs. */
export interface ApplyEnv {
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
  state: ApplyState;
  effects: CreateEffects;
}

export interface PlanStep {
  readonly id: StepId;
  /** The progress phase it is shown under (consecutive steps of one phase show as one). */
  readonly phase: string;
  /** Registered before the step runs, so a step that fails half-way is undone too. */
  readonly undo?: { readonly label: string; run(env: ApplyEnv): Promise<void> };
  /** A step without an undo of its own is undone by an earlier step's (its files are in that directory, its objects in that cluster). */
  readonly undoneBy?: StepId;
  run(env: ApplyEnv, update: (detail: string) => void): Promise<void>;
}

/** The runtime's view of the cluster while the plan is applied (programs as resolved so far). */
export function runtimeContext(plan: Pick<CreatePlan, 'name' | 'paths' | 'values' | 'components' | 'workdir'>, env: Pick<ApplyEnv, 'executor' | 'logger' | 'signal' | 'state'>, signal: AbortSignal = env.signal): RuntimeContext {
  return {
    cluster: plan.name, paths: plan.paths, executor: env.executor, logger: env.logger, programs: env.state.programs, signal,
    quietPull: plan.values.quietPull, clusterComponents: plan.components, cacheDir: cacheDirOf(plan.values, plan.workdir),
  };
}

export interface StepInputs {
  crdKinds: readonly ServedCrdKind[];
  /** Whether the cluster's files include objects of those kinds (paths.customResources). */
  withCrObjects: boolean;
  metricsServer: boolean;
  /** scheduler-plugins' manifest sources (URLs, paths), when it is enabled. */
  schedulerPluginsManifests?: readonly string[];
  userKubeconfig: string;
  waitMs: number;
  waitFor?: WaitFor;
  pki: Parameters<typeof writePki>[2];
}

export type PlanData = Omit<CreatePlan, 'steps'>;

export function planSteps(plan: PlanData, input: StepInputs): PlanStep[] {
  const { paths, components } = plan;
  const native = plan.mode === 'native';
  const kubectl = (env: ApplyEnv): string => env.state.programs.get('kubectl')!;
  const writeFiles = 'Write cluster files';
  const steps: PlanStep[] = [
    {
      id: 'resolve-programs',
      phase: 'Resolve binaries',
      // Nothing to undo: what it downloads or builds is the shared cache, kept for the next create.
      run: async (env, update) => {
        // Container images bring their own binaries; the host still needs kubectl and etcdctl.
        const resolved = await env.effects.resolvePrograms(native ? components : [], {
          values: plan.values, kubeVersion: plan.spec.kubeVersion, etcdVersion: plan.spec.etcdVersion, workdir: plan.workdir,
          executor: env.executor, logger: env.logger, signal: env.signal, onProgress: update,
        });
        env.state.programs = new Map([...env.state.programs, ...resolved]);
        await env.effects.checkPrograms(native ? components : [], env.state.programs, env.executor);
      },
    },
    {
      id: 'make-directories',
      phase: writeFiles,
      // Removing the directory also undoes the files the next steps write into it.
      undo: { label: 'remove cluster directory', run: (env) => env.executor.remove(paths.root) },
      run: async ({ executor }) => {
        // Private: keys, kubeconfigs, etcd's data and logs are the cluster owner's alone. Each
        // directory gets the mode itself, not just the root: one moved or copied out of the
        // cluster directory (an exported log directory, a backup) stays private too, and the
        // audit log in logs/ holds request bodies.
        for (const dir of [paths.root, paths.pids, paths.logs, paths.etcdData]) await executor.mkdirp(dir, { mode: 0o700 });
      },
    },
    { id: 'write-pki', phase: writeFiles, undoneBy: 'make-directories', run: (env) => env.effects.writePki(env.executor, paths, input.pki) },
    {
      id: 'write-files',
      phase: writeFiles,
      undoneBy: 'make-directories',
      run: async ({ executor }) => {
        for (const file of plan.files) await executor.writeFile(file.path, file.content, ...(file.mode !== undefined ? [{ mode: file.mode }] : []));
      },
    },
    ...(input.schedulerPluginsManifests
      ? [{
          id: 'fetch-manifests',
          phase: 'Fetch the scheduler-plugins manifests',
          undoneBy: 'make-directories',
          // Before anything starts, so a manifest that cannot be had fails the create early. The
          // cluster's own copy is what the apply step (and a create that continues) applies.
          run: async (env: ApplyEnv) => {
            const objects: Array<Record<string, unknown>> = [];
            for (const source of input.schedulerPluginsManifests ?? []) {
              const text = await env.effects.ensureManifest(source, { cacheDir: cacheDirOf(plan.values, plan.workdir), executor: env.executor, kubectl: kubectl(env), logger: env.logger, signal: env.signal });
              objects.push(...schedulerPluginsManifestObjects(parseK8sYamlDocuments(text), source));
            }
            await env.executor.writeFile(paths.schedulerPluginsManifest, renderYamlDocuments(objects));
          },
        } satisfies PlanStep]
      : []),
    {
      id: 'write-record',
      phase: writeFiles,
      undoneBy: 'make-directories',
      run: ({ executor, state }) => executor.writeFile(paths.config, renderRecord({ ...plan.record, programs: Object.fromEntries(state.programs) }, paths.root), { mode: 0o600 }),
    },
    {
      id: 'start-components',
      phase: `Start ${components.map((c) => c.name).join(', ')}`,
      undo: {
        // Also removes what the runtime made outside the directory (containers, network). Undos
        // run after an interrupt too: they get a signal of their own, never the aborted one.
        label: 'stop and remove components',
        run: async (env) => {
          const ctx = runtimeContext(plan, env, new AbortController().signal);
          await plan.runtime.stop(components, ctx, { graceMs: 0 });
          await plan.runtime.remove(ctx);
        },
      },
      run: (env, update) =>
        env.effects.startComponents(plan.runtime, components, runtimeContext(plan, env), {
          paths,
          waitMs: input.waitMs,
          ...(input.waitFor ? { waitFor: input.waitFor } : {}),
          signal: env.signal,
          onReady: (n, ms) => update(`${n} ready in ${(ms / 1000).toFixed(1)}s`),
        }),
    },
  ];
  const { crdKinds, withCrObjects } = input;
  if (crdKinds.length > 0) {
    steps.push({
      id: 'install-crds',
      phase: `Install the ${crdKinds.join(', ')} CRD${crdKinds.length > 1 ? 's' : ''}${withCrObjects ? ' and objects' : ''}`,
      // Inside the cluster: removed with it on rollback, so no undo of its own.
      undoneBy: 'start-components',
      run: (env) => installCrds({ kinds: crdKinds, withObjects: withCrObjects, kubectl: kubectl(env), paths, executor: env.executor }),
    });
  }
  if (input.metricsServer) {
    steps.push({
      id: 'register-metrics-server',
      phase: `Register metrics-server as the APIService ${METRICS_API_SERVICE}`,
      // Inside the cluster: removed with it on rollback, so no undo of its own.
      undoneBy: 'start-components',
      run: (env) => applyManifest(paths.metricsServerManifest, kubectl(env), paths, env.executor),
    });
  }
  if (input.schedulerPluginsManifests) {
    steps.push({
      id: 'apply-scheduler-plugins-manifests',
      phase: 'Set up manifest for scheduler-plugins',
      // Inside the cluster: removed with it on rollback, so no undo of its own.
      undoneBy: 'start-components',
      run: (env) => applyManifest(paths.schedulerPluginsManifest, kubectl(env), paths, env.executor),
    });
  }
  const target = input.userKubeconfig;
  if (target) {
    const title = `Add context ${contextName(plan.name)} to ${target}`;
    steps.push({
      id: 'add-context',
      phase: title,
      undo: {
        label: 'restore user kubeconfig',
        run: async (env) => {
          if (env.state.userSnapshot) await env.effects.restoreKubeconfig(target, env.state.userSnapshot);
        },
      },
      run: async (env) => {
        env.state.userSnapshot = await env.executor.call({
          argv: [],
          note: title,
          perform: () => env.effects.mergeContext(target, clusterEntryOf(plan.name, paths, plan.server), { makeCurrent: true }),
          dryRunResult: undefined,
        });
      },
    });
  }
  return steps;
}

export function clusterEntryOf(name: string, paths: ClusterPaths, server: string): ReturnType<typeof buildClusterEntry> {
  return buildClusterEntry({ name: contextName(name), server, caFile: paths.caCert, certFile: paths.adminCert, keyFile: paths.adminKey });
}
