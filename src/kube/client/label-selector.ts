/**
 * Kubernetes label-selector syntax ("a=b,c!=d,e in (x,y),!f,g"), parsed once and evaluated against
 * any string map. kwok evaluates --manage-nodes-with-annotation-selector with this same syntax against
 * annotations, client-side, so the parser cannot be left to the API server.
 */
export type Requirement =
  | { key: string; op: 'in'; values: string[] }
  | { key: string; op: 'notin'; values: string[] }
  | { key: string; op: 'exists' }
  | { key: string; op: 'doesnotexist' }
  | { key: string; op: 'gt' | 'lt'; value: number };

export interface LabelSelector {
  readonly text: string;
  readonly requirements: readonly Requirement[];
  matches(map: Record<string, string> | undefined): boolean;
}

export class SelectorSyntaxError extends Error {}

/** Split at top-level commas (commas inside "(...)" belong to a value list). */
function splitTerms(text: string): string[] {
  const terms: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms.map((t) => t.trim()).filter((t) => t !== '');
}

function parseTerm(term: string): Requirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^)]*)\)$/i.exec(term);
  if (setMatch) {
    const values = setMatch[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '');
    return { key: setMatch[1]!, op: setMatch[2]!.toLowerCase() as 'in' | 'notin', values };
  }
  if (term.startsWith('!')) return { key: term.slice(1).trim(), op: 'doesnotexist' };
  const opMatch = /^([^=!<>\s]+)\s*(==|=|!=|<|>)\s*(.*)$/.exec(term);
  if (opMatch) {
    const [, key, op, rawValue] = opMatch as unknown as [string, string, string, string];
    const value = rawValue.trim();
    if (op === '<' || op === '>') {
      const n = Number(value);
      if (!Number.isInteger(n)) throw new SelectorSyntaxError(`selector "${term}": ${op} needs an integer`);
      return { key, op: op === '<' ? 'lt' : 'gt', value: n };
    }
    return { key, op: op === '!=' ? 'notin' : 'in', values: [value] };
  }
  if (/^[^\s=!<>(),]+$/.test(term)) return { key: term, op: 'exists' };
  throw new SelectorSyntaxError(`cannot parse selector term "${term}"`);
}

function matchesRequirement(req: Requirement, map: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(map, req.key);
  const value = has ? map[req.key] : undefined;
  switch (req.op) {
    case 'exists':
      return has;
    case 'doesnotexist':
      return !has;
    case 'in':
      return has && req.values.includes(value!);
    case 'notin':
      return !has || !req.values.includes(value!);
    case 'gt':
    case 'lt': {
      if (!has) return false;
      const n = Number(value);
      if (!Number.isFinite(n)) return false;
      return req.op === 'gt' ? n > req.value : n < req.value;
    }
  }
}

export function parseLabelSelector(text: string): LabelSelector {
  const requirements = splitTerms(text).map(parseTerm);
  return {
    text,
    requirements,
    matches: (map) => requirements.every((req) => matchesRequirement(req, map ?? {})),
  };
}
