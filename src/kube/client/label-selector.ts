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

/** A DNS-1123 subdomain: the optional prefix of a label key ("kwok.x-k8s.io" in "kwok.x-k8s.io/node"). */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** The name part of a label key, and a non-empty label value (apimachinery's qualifiedNameFmt). */
const QUALIFIED_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * Keys and values are checked as apimachinery's labels.Parse checks them (kwok parses its selector
 * flags with it): a term this parser would otherwise read loosely ("!!bad=(" as "no key !bad=(")
 * is refused at start instead of being sent to the apiserver, which answers 400 on every retry.
 */
function checkKey(key: string, term: string): void {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  const ok =
    name.length > 0 &&
    name.length <= 63 &&
    QUALIFIED_NAME.test(name) &&
    (prefix === undefined || (prefix.length > 0 && prefix.length <= 253 && DNS_SUBDOMAIN.test(prefix)));
  if (!ok) throw new SelectorSyntaxError(`selector "${term}": "${key}" is not a valid label key (an optional DNS subdomain and "/", then up to 63 letters, digits, "-", "_" or ".", starting and ending alphanumeric)`);
}

function checkValue(value: string, term: string): void {
  if (value === '' || (value.length <= 63 && QUALIFIED_NAME.test(value))) return;
  throw new SelectorSyntaxError(`selector "${term}": "${value}" is not a valid label value (up to 63 letters, digits, "-", "_" or ".", starting and ending alphanumeric)`);
}

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
  const req = readTerm(term);
  checkKey(req.key, term);
  if (req.op === 'in' || req.op === 'notin') for (const value of req.values) checkValue(value, term);
  return req;
}

function readTerm(term: string): Requirement {
  const setMatch = /^(\S+)\s+(in|notin)\s*\(([^()]*)\)$/i.exec(term);
  if (setMatch) {
    const values = setMatch[3]!.split(',').map((v) => v.trim()).filter((v) => v !== '');
    // apimachinery reads "()" as the one empty value, not as no values (which it would refuse).
    return { key: setMatch[1]!, op: setMatch[2]!.toLowerCase() as 'in' | 'notin', values: values.length === 0 ? [''] : values };
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
