/**
 * Create, second half: perform a plan's steps in order, as progress phases, through the
 * Executor. Each step's undo is registered before it runs; a failure or an interrupt undoes, in
 * reverse, exactly what may have happened (unless --retain keeps it for debugging).
 */
import { InterruptedError, KwoktsError, OperationError } from '../util/errors.js';
import type { Executor } from '../exec/executor.js';
import type { Logger } from '../util/log.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import type { CreatePlan } from './create-plan.js';
import { REAL_EFFECTS, runtimeContext, type ApplyEnv, type CreateEffects, type PlanStep } from './create-steps.js';
import { componentFailure, notReadyFailure } from './log-tail.js';
import { resolveHostPrograms } from './programs.js';
import { runPhasesQuietly, type Phase, type PhaseRunner } from './phases.js';
import { Journal } from './transaction.js';
import { ComponentExitedError, NotReadyError } from './wait.js';
import { span } from '../util/timeline.js';
import { dirname } from 'node:path';
import { freeSpaceHint } from '../util/disk-full.js';

export interface ApplyOptions {
  executor: Executor;
  logger: Logger;
  signal: AbortSignal;
  /** Keep a failed cluster for debugging instead of rolling it back. */
  retain: boolean;
  runPhases?: PhaseRunner;
  effects?: CreateEffects;
  /** Called at the commit point, synchronously (see CreateClusterOptions.onCommit). */
  onCommit?: () => void;
}

export async function applyPlan(plan: CreatePlan, options: ApplyOptions): Promise<void> {
  const { logger, signal } = options;
  const env: ApplyEnv = { executor: options.executor, logger, signal, state: { programs: new Map(plan.hostPrograms) }, effects: options.effects ?? REAL_EFFECTS };
  const journal = new Journal(logger);
  const runPhases = options.runPhases ?? runPhasesQuietly;
  // kind itself first (it may be built into the cache): the engine check runs it.
  env.state.programs = await resolveHostPrograms(plan.hostPrograms, { values: plan.values, workdir: plan.workdir, executor: options.executor, logger, signal });
  // The engine must answer (and the cluster's names be free) before anything is made.
  await plan.runtime.check(runtimeContext(plan, env));
  try {
    // An interrupt is honoured at every phase boundary, and once more right before the commit:
    // a create is either rolled back whole or finished whole, whenever the signal comes.
    await runPhases(phasesOf(plan.steps, journal, env).map((phase) => ({
      title: phase.title,
      run: async (update) => {
        signal.throwIfAborted();
        await span(phase.title, () => phase.run(update));
        signal.throwIfAborted();
      },
    })));
    signal.throwIfAborted();
    journal.commit();
    options.onCommit?.();
  } catch (error) {
    const primary = await explainFailure(error, plan.runtime, runtimeContext(plan, env), signal, afterFailure(plan.name, options.retain));
    if (options.retain) {
      logger.warn(`keeping the failed cluster ${plan.name} for debugging (--retain); delete it with \`kwokts --name ${plan.name} delete cluster\``);
    } else {
      const failures = await journal.rollback();
      if (primary instanceof KwoktsError) primary.suppressed.push(...failures);
    }
    throw primary;
  }
}

/** Consecutive steps of one phase run as that phase. */
function phasesOf(steps: readonly PlanStep[], journal: Journal, env: ApplyEnv): Phase[] {
  const phases: Array<{ title: string; steps: PlanStep[] }> = [];
  for (const step of steps) {
    const last = phases.at(-1);
    if (last?.title === step.phase) last.steps.push(step);
    else phases.push({ title: step.phase, steps: [step] });
  }
  return phases.map(({ title, steps: own }) => ({
    title,
    run: async (update) => {
      for (const step of own) {
        // Between the steps of a phase too: nothing more is made once an interrupt came.
        env.signal.throwIfAborted();
        if (step.undo) {
          const undo = step.undo;
          await journal.step(undo.label, () => undo.run(env), () => step.run(env, update));
        } else {
          await step.run(env, update);
        }
      }
    },
  }));
}

/**
 * What the hint says happened to the cluster and what to do next: it must agree with the warning
 * --retain prints (the cluster is kept, not rolled back).
 */
function afterFailure(name: string, retain: boolean): { exited: (component: string, diskFull?: string) => string; notReady: string } {
  if (retain) {
    const kept = `the cluster was kept (--retain): read a component's log with \`kwokts --name ${name} logs <component>\`, and delete the cluster with \`kwokts --name ${name} delete cluster\``;
    return {
      exited: (component) => `the cluster was kept (--retain): read the rest of the log with \`kwokts --name ${name} logs ${component}\`, and delete the cluster with \`kwokts --name ${name} delete cluster\``,
      notReady: kept,
    };
  }
  return {
    // A full disk is what to fix (the component's log said so), not something to debug.
    exited: (_component, diskFull) => `the cluster was rolled back; ${diskFull ?? 'rerun with --retain to keep it for debugging'}`,
    notReady: 'the cluster was rolled back; give it longer with --wait, or rerun with --retain to keep it for debugging',
  };
}

/** Turn what went wrong into one user-facing error, with the dead component's last log lines. */
async function explainFailure(error: unknown, runtime: Runtime, ctx: RuntimeContext, signal: AbortSignal, hints: ReturnType<typeof afterFailure>): Promise<unknown> {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    // The command's own deadline (--timeout) aborts with a TimeoutError.
    return KwoktsError.is(reason) ? reason : new InterruptedError('SIGINT');
  }
  if (error instanceof ComponentExitedError) {
    const failure = await componentFailure(`create failed: ${error.component} exited during start-up`, runtime, error.component, ctx);
    return new OperationError(failure.message, {
      hint: hints.exited(error.component, failure.diskFull ? freeSpaceHint(dirname(ctx.paths.root)) : undefined),
      cause: error,
    });
  }
  if (error instanceof NotReadyError) {
    return notReadyFailure(error, runtime, ctx, hints.notReady);
  }
  return error;
}

