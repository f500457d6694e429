/**
 * One small logger for the whole CLI. Levels follow kwokctl's (slog) numbering so `-v DEBUG`,
 * `-v -4` and `-v 0` mean the same thing as there. Output goes to stderr: stdout carries results.
 */
export const LogLevel = { DEBUG: -4, INFO: 0, WARN: 4, ERROR: 8 } as const;
export type LogLevelName = keyof typeof LogLevel;

export interface Logger {
  readonly level: number;
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Accepts DEBUG/INFO/WARN/ERROR (any case) or their numbers; undefined for anything else. */
export function parseLogLevel(value: string): number | undefined {
  const upper = value.trim().toUpperCase();
  if (upper in LogLevel) return LogLevel[upper as LogLevelName];
  if (/^-?\d+$/.test(upper)) return Number(upper);
  return undefined;
}

export function levelName(level: number): LogLevelName {
  if (level <= LogLevel.DEBUG) return 'DEBUG';
  if (level <= LogLevel.INFO) return 'INFO';
  if (level <= LogLevel.WARN) return 'WARN';
  return 'ERROR';
}

/**
 * Where the default logger's lines go instead of stderr, while something else owns the terminal:
 * listr2's display on a terminal holds every write to stderr until it ends, and a line that says
 * why a long build starts must be read before the build ends (src/cli/progress.ts sets it).
 */
let diverted: ((line: string) => void) | undefined;

export function divertLogLines(to: ((line: string) => void) | undefined): void {
  diverted = to;
}

/** Where the default logger writes a line: stderr, or where divertLogLines sent it. */
export function writeLogLine(line: string): void {
  if (diverted) diverted(line);
  else process.stderr.write(line + '\n');
}

export function createLogger(level: number = LogLevel.INFO, write: (line: string) => void = writeLogLine): Logger {
  const emit = (at: number, prefix: string, message: string): void => {
    if (at >= level) write(prefix ? `${prefix} ${message}` : message);
  };
  return {
    level,
    debug: (m) => emit(LogLevel.DEBUG, 'debug:', m),
    info: (m) => emit(LogLevel.INFO, '', m),
    warn: (m) => emit(LogLevel.WARN, 'warning:', m),
    error: (m) => emit(LogLevel.ERROR, 'error:', m),
  };
}

export const silentLogger: Logger = createLogger(Number.POSITIVE_INFINITY, () => undefined);
