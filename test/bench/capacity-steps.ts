/**
 * The steps of a capacity run (./capacity.ts), apart from any cluster: the step counts asked for,
 * whether a step fits in what is left of a tool's budget, how a hold is judged, what a tool's steps
 * come to, and the table that puts the tools side by side.
 */
import { table } from './controller.js';
import { fixed } from './lines.js';

/**
 * held: every node stayed Ready and every lease was renewed in time through the whole hold.
 * failed: a lease was late or a node left Ready in the hold (or the controller or the creator died).
 * cut: the budget or a signal ended the step before its hold was over, with nothing late so far.
 * not reached: never started (no budget left for it, or an earlier step failed or was cut).
 */
export type Verdict = 'held' | 'failed' | 'cut' | 'not reached';

/** What a hold saw, from its samples and the watch events between them. */
export interface HoldTally {
  /** Samples taken in the hold. */
  samples: number;
  /** The hold lasted its whole length. */
  complete: boolean;
  /** Node leases found late (renewTime + leaseDurationSeconds passed before a renewal), each once. */
  lateLeases: number;
  /** Nodes whose Ready condition left True, each once (a flap between samples counts too). */
  goneNotReady: number;
  /** The most nodes not Ready at one sample. */
  mostNotReady: number;
}

/** The controller's figures over a hold. */
export interface HoldUse {
  seconds: number;
  rssMiB: { mean: number; max: number };
  /** CPU seconds over the hold's seconds, % of one core. */
  cpuPercent: number;
}

export interface StepRecord {
  nodes: number;
  verdict: Verdict;
  /** Why it failed, was cut or was not reached. */
  reason?: string;
  /** Seconds from the step's start (the creator started) until every node was Ready. */
  readySeconds?: number;
  /** Node leases late while the nodes grew: told, not judged (the hold is). */
  growLateLeases?: number;
  hold?: HoldTally & HoldUse;
}

/** --steps: node counts, comma-separated, each larger than the one before. */
export function parseSteps(text: string): number[] {
  const steps = text.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  if (steps.length === 0 || steps.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`--steps ${text}: positive whole node counts, comma-separated (1000,2000,4000)`);
  for (let i = 1; i < steps.length; i++) if (steps[i]! <= steps[i - 1]!) throw new Error(`--steps ${text}: each count must be larger than the one before`);
  return steps;
}

export interface StepPlan {
  start: boolean;
  /** What the step is expected to take: growth, hold and one sample interval. */
  estimateMs: number;
}

/**
 * Whether a step fits in what is left of the tool's budget. Growth is estimated at the pace of
 * the last step's (ms per node added), which only slows as the count grows; before the first
 * step there is no pace and growth counts as nothing, so the first step starts when its hold fits.
 * One sample interval more for the sample that closes the hold.
 */
export function planStep(p: { target: number; nodesNow: number; remainingMs: number; holdMs: number; everyMs: number; msPerNode?: number }): StepPlan {
  const growMs = Math.max(0, p.target - p.nodesNow) * (p.msPerNode ?? 0);
  const estimateMs = growMs + p.holdMs + p.everyMs;
  return { start: estimateMs <= p.remainingMs, estimateMs };
}

/**
 * A hold's verdict: failed as soon as anything went late or left Ready, even in a hold that was
 * cut; else held only when it ran its whole length with at least one sample.
 */
export function judgeHold(t: HoldTally): { verdict: 'held' | 'failed' | 'cut'; reason?: string } {
  if (t.lateLeases > 0 || t.goneNotReady > 0 || t.mostNotReady > 0) {
    return { verdict: 'failed', reason: `late leases ${t.lateLeases}, gone NotReady ${t.goneNotReady}${t.mostNotReady > t.goneNotReady ? `, most NotReady at a sample ${t.mostNotReady}` : ''}` };
  }
  if (!t.complete || t.samples === 0) return { verdict: 'cut', reason: `hold cut short after ${t.samples} samples` };
  return { verdict: 'held' };
}

/** What a tool's steps come to: the largest held (when any was) and the first that failed. */
export function summarize(steps: readonly StepRecord[]): { largestHeld?: number; firstFailed?: StepRecord } {
  const held = steps.filter((s) => s.verdict === 'held').map((s) => s.nodes);
  const firstFailed = steps.find((s) => s.verdict === 'failed');
  return { ...(held.length > 0 ? { largestHeld: Math.max(...held) } : {}), ...(firstFailed ? { firstFailed } : {}) };
}

/** Ours ÷ the peer's largest step held; NaN when either held none. */
export function largestHeldRatio(ours: readonly StepRecord[], peer: readonly StepRecord[]): number {
  const a = summarize(ours).largestHeld;
  const b = summarize(peer).largestHeld;
  return a !== undefined && b !== undefined ? a / b : NaN;
}

/** One step as a table cell or a note: its verdict, why, and the figures it has. */
export function stepCell(s: StepRecord): string {
  const parts: string[] = [s.verdict === 'held' ? 'held' : s.reason ? `${s.verdict}: ${s.reason}` : s.verdict];
  if (s.readySeconds !== undefined) parts.push(`all Ready in ${fixed(s.readySeconds, 1)} s${s.growLateLeases ? ` (late leases while growing ${s.growLateLeases})` : ''}`);
  if (s.hold && s.hold.samples > 0) parts.push(`controller RSS ${fixed(s.hold.rssMiB.mean)} MiB (max ${fixed(s.hold.rssMiB.max)}), CPU ${fixed(s.hold.cpuPercent)} %`);
  return parts.join('; ');
}

export interface ToolSteps {
  label: string;
  steps: readonly StepRecord[];
}

/** The tools side by side: a row per step, then each tool's largest step held and first failed, and their ratio. */
export function capacityTable(tools: readonly ToolSteps[]): string {
  const counts = [...new Set(tools.flatMap((t) => t.steps.map((s) => s.nodes)))].sort((a, b) => a - b);
  const rows: string[][] = [['', ...tools.map((t) => t.label)]];
  for (const n of counts) rows.push([`${n} nodes`, ...tools.map((t) => { const s = t.steps.find((x) => x.nodes === n); return s ? stepCell(s) : '-'; })]);
  const sums = tools.map((t) => summarize(t.steps));
  rows.push(['largest step held', ...sums.map((s) => (s.largestHeld === undefined ? 'none' : String(s.largestHeld)))]);
  rows.push(['first step failed', ...sums.map((s) => (s.firstFailed ? `${s.firstFailed.nodes} (${s.firstFailed.reason ?? 'failed'})` : 'none'))]);
  if (tools.length === 2) {
    const r = largestHeldRatio(tools[0]!.steps, tools[1]!.steps);
    rows.push([`largest held, ${tools[0]!.label} ÷ ${tools[1]!.label}`, Number.isFinite(r) ? `${r.toFixed(2)}×` : '-', '']);
  }
  return table(rows);
}
