/**
 * Rewrites of jq source text that jqjs would misread, applied before parsing; string literals,
 * their interpolations and comments are handled so only real code is touched.
 */

/** Index of the quote that ends the string literal opened at `start` (handles `\(...)`). */
function endOfString(src: string, start: number): number {
  let i = start + 1;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && src[i + 1] === '(') {
      i = endOfInterpolation(src, i + 2);
      continue;
    }
    if (c === '\\') {
      i += 2;
      continue;
    }
    if (c === '"') return i;
    i++;
  }
  return src.length;
}

/** Index just after the ')' closing an interpolation whose body starts at `start`. */
function endOfInterpolation(src: string, start: number): number {
  let depth = 1;
  let i = start;
  while (i < src.length && depth > 0) {
    const c = src[i];
    if (c === '"') i = endOfString(src, i);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    i++;
  }
  return i;
}

/** A string literal with each `\(...)` body passed through rewriteSource. */
function rewriteInterpolations(literal: string): string {
  let out = '';
  let i = 0;
  while (i < literal.length) {
    if (literal[i] === '\\' && literal[i + 1] === '(') {
      const end = endOfInterpolation(literal, i + 2);
      out += `\\(${rewriteSource(literal.slice(i + 2, end - 1))})`;
      i = end;
      continue;
    }
    if (literal[i] === '\\') {
      out += literal.slice(i, i + 2);
      i += 2;
      continue;
    }
    out += literal[i];
    i++;
  }
  return out;
}

/**
 * Rewrites source text jqjs misreads, outside string literals and comments: gojq's quoted field
 * access `."a-b"` (and `.x."a-b"`) becomes `.["a-b"]`, and an open slice end `[1:]` becomes
 * `[1:null]` (jqjs would fill in -1).
 */
export function rewriteSource(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '#') {
      const eol = src.indexOf('\n', i);
      const end = eol < 0 ? src.length : eol;
      out += src.slice(i, end);
      i = end;
      continue;
    }
    if (c === '"') {
      const end = endOfString(src, i);
      const literal = rewriteInterpolations(src.slice(i, end + 1));
      const fieldAccess = src[i - 1] === '.' && src[i - 2] !== '.' && !/[0-9]/.test(src[i - 2] ?? '');
      out += fieldAccess ? `[${literal}]` : literal;
      i = end + 1;
      continue;
    }
    if (c === ':') {
      const m = /^:(\s*)\]/.exec(src.slice(i));
      if (m) {
        out += `:null${m[1]}]`;
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  return out;
}
