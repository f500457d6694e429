/**
 * Differential test: every case's output and error text were produced by Go's text/template
 * (see go-oracle-cases.ts). Only Go's builtins plus the oracle's extra functions are registered,
 * so e.g. "slice" is Go's builtin here, not sprig's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate, GoFloat, kwokQuote, sprigFuncs, typed, TemplateError, type FuncMap } from '../../../../src/gocompat/gotpl/index.js';
import { ORACLE_CASES, ORACLE_DATA } from './go-oracle-cases.js';

/** The Go program's extra functions, with the same Go signatures. */
const ORACLE_FUNCS: FuncMap = {
  Quote: typed(['any'], kwokQuote),
  toJson: sprigFuncs().toJson as FuncMap[string],
  upper: typed(['string'], (s) => (s as string).toUpperCase()),
  repeat: typed(['int', 'string'], (n, s) => (s as string).repeat(n as number)),
  add: typed([], (...a) => BigInt(a.length), 'any'),
  fl: typed([], () => new GoFloat(3)),
  i64: typed([], () => 3n),
  nilf: typed([], () => null),
  lst: typed([], (...a) => a, 'any'),
  fail: typed(['string'], (m) => {
    throw new Error(m as string);
  }),
};

function run(template: string, data: unknown): { out: string; err?: string } {
  try {
    const tpl = compileTemplate(template, ORACLE_FUNCS, { baseFuncs: {} });
    return { out: tpl.execute(data) };
  } catch (e) {
    assert.ok(e instanceof TemplateError, `expected TemplateError, got ${String(e)}`);
    return { out: e.output ?? '', err: e.message };
  }
}

describe('gotpl matches Go text/template (oracle cases)', () => {
  for (const c of ORACLE_CASES) {
    it(JSON.stringify(c.template), () => {
      const got = run(c.template, ORACLE_DATA[c.data]);
      assert.deepEqual(got, c.err === undefined ? { out: c.out } : { out: c.out, err: c.err });
    });
  }
});
