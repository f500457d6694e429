/**
 * jq with gojq's behaviour where kwok depends on it, on @michaelhomer/jqjs (pinned exactly in
 * package.json: jqjs-fixes.ts patches its private classes). The entry point for code outside
 * src/gocompat/jq.
 */
export { compileJq, evalJq, JqCompileError, type JqQuery } from './jq.js';
