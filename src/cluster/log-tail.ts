import type { ComponentName } from '../components/index.js';
import type { Runtime, RuntimeContext } from '../../runtimes/runtime.js';
import { readComponentLog } from './logs.js';
import { summarizeOutput } from '../util/output-tail.js';

/** The last lines of a component's log, indented, for error messages; empty when unreadable. */
export async function logTail(runtime: Runtime, component: ComponentName, ctx: RuntimeContext, lines = 8): Promise<string> {
  const text = await readComponentLog(runtime, component, ctx);
  return summarizeOutput(text, lines).map((l) => `  ${l}`).join('\n');
}

/** `message`, followed by the component's last log lines when there are any: how every "component died" error reads. */
export async function componentFailure(message: string, runtime: Runtime, component: ComponentName, ctx: RuntimeContext): Promise<string> {
  const tail = await logTail(runtime, component, ctx);
  return `${message}${tail ? `; its log ends with:\n${tail}` : ''}`;
}
