import { createLogger, writeLogLine, type Logger } from '../util/log.js';
import { namingInvocation } from './invocation.js';

/** The CLI's logger: createLogger's, with the commands its lines name written as the user ran kwokts. */
export function createCliLogger(level: number): Logger {
  return createLogger(level, (line) => writeLogLine(namingInvocation(line)));
}
