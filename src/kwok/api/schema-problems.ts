/**
 * How a document that does not fit its zod schema is described to the user: the field's path as
 * kwok's Go structs would spell it (`spec.logs[0].logsFile`), and the object's name.
 */
import type { z } from 'zod';

export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) out += typeof p === 'number' ? `[${p}]` : out === '' ? String(p) : `.${String(p)}`;
  return out;
}

/** One issue as a line: `unknown field "a.b"` or `a.b: <zod's message>`. */
export function describeIssue(issue: { code: string; path: readonly PropertyKey[]; message: string; keys?: readonly string[] }): string {
  const at = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys' && issue.keys) {
    return issue.keys.map((k) => `unknown field "${at === '' ? k : `${at}.${k}`}"`).join('; ');
  }
  return `${at === '' ? '(document)' : at}: ${issue.message}`;
}

/** The first problem of a failed parse (documents are refused one problem at a time). */
export function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? describeIssue({ ...issue, keys: issue.code === 'unrecognized_keys' ? issue.keys.slice(0, 1) : undefined }) : 'invalid';
}

/** metadata.name, or `fallback` when there is none. */
export function objectName(doc: unknown, fallback = '<no name>'): string {
  const name = (doc as { metadata?: { name?: unknown } } | null)?.metadata?.name;
  return typeof name === 'string' && name !== '' ? name : fallback;
}
