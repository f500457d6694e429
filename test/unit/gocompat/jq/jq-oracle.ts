/**
 * Real jq (jq-web: jq compiled to WebAssembly) as a test oracle. It loads asynchronously once and
 * is synchronous afterwards. Outputs are collected with `[ expr ]`; an error means "no value",
 * the same convention as our engine (and kwok).
 */
import { createRequire } from 'node:module';

interface JqWeb {
  json(input: unknown, filter: string): unknown;
}

let loaded: Promise<JqWeb> | undefined;

export function loadJqOracle(): Promise<JqWeb> {
  if (loaded === undefined) {
    const require = createRequire(import.meta.url);
    loaded = Promise.resolve(require('jq-web') as Promise<JqWeb>);
  }
  return loaded;
}

export function oracleOutputs(jq: JqWeb, input: unknown, expression: string): unknown[] {
  try {
    return jq.json(input, `[ ${expression} ]`) as unknown[];
  } catch {
    return [];
  }
}
