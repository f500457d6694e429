import type { ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { readComponentLog } from './logs.js';
import { summarizeOutput } from '../util/output-tail.js';

/** The last lines of a component's log, indented, for error messages; empty when unreadable. */
export async function logTail(runtime: Runtime, component: ComponentName, ctx: RuntimeContext, lines = 8): Promise<string> {
  const text = await readComponentLog(runtime, component, ctx);
  return summarizeOutput(text, lines).map((l) => `  ${l}`).join('\n');
}
