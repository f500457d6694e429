/**
 * The few lines of a child's output (or a component's log) worth showing under an error. A Go
 * panic's goroutine dump is dropped (its "panic:" line says what happened), and a structured JSON
 * log line (etcd, klog's JSON format) is shown as "level: msg: error".
 */
export function summarizeOutput(text: string, max = 5): string[] {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter((l) => l.trim() !== '');
  const panic = lines.findIndex((l) => /^(panic|fatal error): /.test(l));
  const relevant = panic >= 0 ? lines.slice(0, panic + 1) : lines.filter((l) => !/^goroutine \d+ \[|^\s+\/.*\.go:\d+|^[\w./*()-]+\(.*\)$/.test(l));
  return relevant.slice(-max).map(readableLine);
}

/** The most telling single line: a panic, else the last error-looking line, else the last line. */
export function outputReason(text: string): string | undefined {
  const lines = summarizeOutput(text, 20);
  const panic = lines.find((l) => /^(panic|fatal error): /.test(l));
  if (panic) return panic;
  const errorLine = [...lines].reverse().find((l) => /error|failed|no space|denied|not found|invalid|refused|no such/i.test(l));
  return errorLine ?? lines.at(-1);
}

function readableLine(line: string): string {
  if (!line.startsWith('{')) return line;
  try {
    const value = JSON.parse(line) as Record<string, unknown>;
    const parts = [value.level, value.msg, value.error ?? value.err].filter((p): p is string => typeof p === 'string' && p !== '');
    return parts.length > 0 ? parts.join(': ') : line;
  } catch {
    return line;
  }
}
