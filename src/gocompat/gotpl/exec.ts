/*
 * Executor for Go text/template, ported from Go's src/text/template/exec.go.
 *
 * Copyright 2011 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 *
 * The walk keeps Go's evaluation order and its "current node" bookkeeping (state.at), because
 * error messages name that node. Values follow values.ts: undefined is Go's invalid value (a
 * missing map key), null a nil interface.
 */
import { builtinAnd, builtinCall, builtinOr } from './builtins.js';
import { execError, FuncError, TemplateError } from './errors.js';
import { formatValue, sprint } from './fmt.js';
import type {
  ArgNode,
  BranchNode,
  ChainNode,
  CommandNode,
  FieldNode,
  IdentifierNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  TemplateNode,
  Tree,
  VariableNode,
} from './nodes.js';
import { nodeString } from './nodes.js';
import { goQuote } from './quote.js';
import { canBeNil, goTypeOfParam, signatureOf, type FuncMap, type ParamType, type TemplateFunc } from './signature.js';
import {
  GoComplex,
  elemTypeName,
  float64,
  isGoObject,
  isPlainObject,
  isTrue,
  kindOf,
  sortedKeys,
  typeName,
} from './values.js';

// Go allows 100000 nested template calls natively and 1000 on wasm; a JS stack fits the latter.
const MAX_EXEC_DEPTH = 1000;

/** Go's missingVal: "no piped value" for the final argument of a command. */
const MISSING: unique symbol = Symbol('missing');
type Final = unknown;

/** Status of a walk: keep going, or unwind to the enclosing range. */
const enum Flow {
  Normal = 0,
  Break = 1,
  Continue = 2,
}

export interface ResolvedFunc {
  readonly fn: TemplateFunc;
  readonly isBuiltin: boolean;
}

/** Everything an execution needs besides the data. */
export interface ExecEnv {
  readonly trees: ReadonlyMap<string, Tree>;
  /** Functions known at compile time (builtins flagged), looked up by name. */
  readonly funcs: ReadonlyMap<string, ResolvedFunc>;
}

class ExecAbort extends Error {
  constructor(readonly error: TemplateError) {
    super(error.message);
  }
}

/**
 * Where a field-chain receiver came from, for its static type in messages: a boolean for the
 * first step (whether dot or the variable came out of an interface{} container), otherwise the
 * container it was read from. Resolved only when an error is reported.
 */
type Origin = boolean | object;

function staticType(v: unknown, origin: Origin): string {
  const viaInterface = typeof origin === 'boolean' ? origin : elemIsInterface(origin);
  return viaInterface ? 'interface {}' : typeName(v);
}

function elemIsInterface(container: unknown): boolean {
  return typeof container === 'object' && container !== null && elemTypeName(container) === 'interface {}';
}

class State {
  out = '';
  node: Node | undefined;
  private readonly varNames: string[] = [];
  private readonly varValues: unknown[] = [];
  private readonly varIface: boolean[] = [];
  depth = 0;
  /** Whether dot came out of an interface{} container (a range element), for error messages. */
  dotIface = false;

  constructor(
    public tmplName: string,
    private readonly env: ExecEnv,
    private readonly overrides: FuncMap | undefined,
  ) {}

  // Variables.

  push(name: string, value: unknown, iface = false): void {
    this.varNames.push(name);
    this.varValues.push(value);
    this.varIface.push(iface);
  }

  mark(): number {
    return this.varNames.length;
  }

  pop(mark: number): void {
    if (this.varNames.length === mark) return;
    this.varNames.length = mark;
    this.varValues.length = mark;
    this.varIface.length = mark;
  }

  setVar(name: string, value: unknown, iface = false): void {
    for (let i = this.varNames.length - 1; i >= 0; i--) {
      if (this.varNames[i] === name) {
        this.varValues[i] = value;
        this.varIface[i] = iface;
        return;
      }
    }
    this.errorf(`undefined variable: ${name}`);
  }

  setTopVar(n: number, value: unknown, iface: boolean): void {
    const i = this.varNames.length - n;
    this.varValues[i] = value;
    this.varIface[i] = iface;
  }

  private varIndex(name: string): number {
    for (let i = this.varNames.length - 1; i >= 0; i--) if (this.varNames[i] === name) return i;
    this.errorf(`undefined variable: ${name}`);
  }

  at(node: Node): void {
    this.node = node;
  }

  errorf(message: string, cause?: unknown): never {
    throw new ExecAbort(execError(this.tmplName, this.node, message, cause));
  }

  /** Saves what a {{template}} call replaces (Go copies the state). */
  enterTemplate(name: string, dot: unknown): { name: string; names: string[]; values: unknown[]; iface: boolean[]; dotIface: boolean } {
    const saved = {
      name: this.tmplName,
      names: this.varNames.splice(0),
      values: this.varValues.splice(0),
      iface: this.varIface.splice(0),
      dotIface: this.dotIface,
    };
    this.tmplName = name;
    this.depth++;
    this.dotIface = false;
    this.push('$', dot);
    return saved;
  }

  leaveTemplate(saved: { name: string; names: string[]; values: unknown[]; iface: boolean[]; dotIface: boolean }): void {
    this.tmplName = saved.name;
    this.depth--;
    this.dotIface = saved.dotIface;
    this.pop(0);
    this.varNames.push(...saved.names);
    this.varValues.push(...saved.values);
    this.varIface.push(...saved.iface);
  }

  // Walk.

  walk(dot: unknown, node: Node): Flow {
    this.at(node);
    switch (node.type) {
      case 'action': {
        // Declared variables persist until the enclosing {{end}}; a declaration prints nothing.
        const val = this.evalPipeline(dot, node.pipe);
        if (node.pipe.decl.length === 0) this.printValue(node, val);
        return Flow.Normal;
      }
      case 'text':
        this.out += node.text;
        return Flow.Normal;
      case 'list':
        return this.walkList(dot, node);
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, node);
      case 'range':
        return this.walkRange(dot, node);
      case 'break':
        return Flow.Break;
      case 'continue':
        return Flow.Continue;
      case 'comment':
        return Flow.Normal;
      case 'template':
        return this.walkTemplate(dot, node);
      default:
        this.errorf(`unknown node: ${nodeString(node)}`);
    }
  }

  private walkList(dot: unknown, list: ListNode): Flow {
    const nodes = list.nodes;
    for (let i = 0; i < nodes.length; i++) {
      const n = nodes[i] as Node;
      let flow: Flow;
      if (n.type === 'text') {
        this.node = n;
        this.out += n.text;
        continue;
      }
      flow = this.walk(dot, n);
      if (flow !== Flow.Normal) return flow;
    }
    return Flow.Normal;
  }

  private walkIfOrWith(dot: unknown, node: BranchNode): Flow {
    const mark = this.mark();
    try {
      const val = this.evalPipeline(dot, node.pipe);
      if (isTrue(val)) {
        if (node.type === 'with') {
          const savedIface = this.dotIface;
          this.dotIface = false;
          try {
            return this.walk(val, node.list);
          } finally {
            this.dotIface = savedIface;
          }
        }
        return this.walk(dot, node.list);
      }
      if (node.elseList) return this.walk(dot, node.elseList);
      return Flow.Normal;
    } finally {
      this.pop(mark);
    }
  }

  private walkRange(dot: unknown, r: BranchNode): Flow {
    this.at(r);
    const outerMark = this.mark();
    const savedIface = this.dotIface;
    try {
      const val = this.evalPipeline(dot, r.pipe);
      // Marks the stack after the range's own variables; each iteration pops back to it.
      const mark = this.mark();
      let ran = false;
      switch (kindOf(val)) {
        case 'int':
        case 'int64': {
          if (r.pipe.decl.length > 1) {
            this.errorf(`can't use ${formatValue(val)} to iterate over more than one variable`);
          }
          if (typeof val === 'bigint') {
            for (let i = 0n; i < val; i++) {
              ran = true;
              if (this.rangeIteration(r, mark, savedIface, undefined, i, false) === Flow.Break) break;
            }
          } else {
            for (let i = 0; i < (val as number); i++) {
              ran = true;
              if (this.rangeIteration(r, mark, savedIface, undefined, i, false) === Flow.Break) break;
            }
          }
          break;
        }
        case 'slice': {
          const list = val as unknown[];
          if (list.length === 0) break;
          const iface = elemIsInterface(list);
          for (let i = 0; i < list.length; i++) {
            ran = true;
            if (this.rangeIteration(r, mark, savedIface, i, list[i], iface) === Flow.Break) break;
          }
          break;
        }
        case 'map': {
          const m = val as Record<string, unknown>;
          const keys = sortedKeys(m);
          if (keys.length === 0) break;
          const iface = elemIsInterface(m);
          for (const k of keys) {
            ran = true;
            if (this.rangeIteration(r, mark, savedIface, k, m[k], iface) === Flow.Break) break;
          }
          break;
        }
        case 'invalid':
          break; // nil acts like an empty collection
        default:
          this.errorf(`range can't iterate over ${formatValue(val)}`);
      }
      if (!ran && r.elseList) return this.walk(dot, r.elseList);
      return Flow.Normal;
    } finally {
      this.dotIface = savedIface;
      this.pop(outerMark);
    }
  }

  private rangeIteration(r: BranchNode, mark: number, savedIface: boolean, index: unknown, elem: unknown, elemIface: boolean): Flow {
    const decl = r.pipe.decl;
    if (decl.length > 0) {
      if (r.pipe.isAssign) {
        // With two variables, index comes first; with one, the element.
        if (decl.length > 1) this.setVar(decl[0]?.ident[0] as string, index);
        else this.setVar(decl[0]?.ident[0] as string, elem, elemIface);
      } else {
        this.setTopVar(1, elem, elemIface);
      }
    }
    if (decl.length > 1) {
      if (r.pipe.isAssign) this.setVar(decl[1]?.ident[0] as string, elem, elemIface);
      else this.setTopVar(2, index, false);
    }
    this.dotIface = elemIface;
    try {
      return this.walk(elem, r.list);
    } finally {
      this.dotIface = savedIface;
      this.pop(mark);
    }
  }

  private walkTemplate(dot: unknown, t: TemplateNode): Flow {
    this.at(t);
    const tmpl = this.env.trees.get(t.name);
    if (tmpl === undefined) this.errorf(`template ${goQuote(t.name)} not defined`);
    if (this.depth === MAX_EXEC_DEPTH) this.errorf(`exceeded maximum template depth (${MAX_EXEC_DEPTH})`);
    // Variables declared by the pipeline persist; the callee sees none of ours.
    const newDot = this.evalPipeline(dot, t.pipe);
    const saved = this.enterTemplate(t.name, newDot);
    try {
      this.walk(newDot, tmpl.root);
    } finally {
      this.leaveTemplate(saved);
    }
    return Flow.Normal;
  }

  // Evaluation.

  evalPipeline(dot: unknown, pipe: PipeNode | undefined): unknown {
    if (pipe === undefined) return undefined;
    this.at(pipe);
    let value: unknown = MISSING;
    const cmds = pipe.cmds;
    for (let i = 0; i < cmds.length; i++) {
      value = this.evalCommand(dot, cmds[i] as CommandNode, value);
      // An interface{} result is replaced by its concrete value; a nil interface by no value.
      if (value === null) value = undefined;
    }
    const decl = pipe.decl;
    for (let i = 0; i < decl.length; i++) {
      const name = (decl[i] as VariableNode).ident[0] as string;
      if (pipe.isAssign) this.setVar(name, value);
      else this.push(name, value);
    }
    return value;
  }

  private notAFunction(args: readonly ArgNode[] | undefined, final: Final): void {
    if ((args !== undefined && args.length > 1) || final !== MISSING) {
      this.errorf(`can't give argument to non-function ${nodeString(args?.[0] as ArgNode)}`);
    }
  }

  private evalCommand(dot: unknown, cmd: CommandNode, final: Final): unknown {
    const first = cmd.args[0] as ArgNode;
    switch (first.type) {
      case 'field':
        return this.evalFieldNode(dot, first, cmd.args, final);
      case 'chain':
        return this.evalChainNode(dot, first, cmd.args, final);
      case 'identifier':
        return this.evalFunction(dot, first, cmd, cmd.args, final);
      case 'pipe':
        // A parenthesized pipeline takes no arguments.
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first);
      case 'variable':
        return this.evalVariableNode(dot, first, cmd.args, final);
    }
    this.at(first);
    this.notAFunction(cmd.args, final);
    switch (first.type) {
      case 'bool':
        return first.value;
      case 'dot':
        return dot;
      case 'nil':
        this.errorf('nil is not a command');
      case 'number':
        return this.idealConstant(first);
      case 'string':
        return first.text;
    }
    this.errorf(`can't evaluate command ${goQuote(nodeString(first))}`);
  }

  /** A number literal with no type context: its syntax decides between int, float and complex. */
  private idealConstant(n: NumberNode): unknown {
    this.at(n);
    if (n.isComplex) return new GoComplex(n.complex.re, n.complex.im);
    if (n.isFloat && !isHexInt(n.text) && !n.text.startsWith("'") && /[.eEpP]/.test(n.text)) return float64(n.float64);
    if (n.isInt) {
      const v = n.int64;
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    if (n.isUint) this.errorf(`${n.text} overflows int`);
    return undefined;
  }

  private evalFieldNode(dot: unknown, field: FieldNode, args: readonly ArgNode[] | undefined, final: Final): unknown {
    this.at(field);
    return this.evalFieldChain(dot, dot, this.dotIface, field, field.ident, args, final);
  }

  private evalChainNode(dot: unknown, chain: ChainNode, args: readonly ArgNode[] | undefined, final: Final): unknown {
    this.at(chain);
    if (chain.field.length === 0) this.errorf('internal error: no fields in evalChainNode');
    if (chain.node.type === 'nil') this.errorf(`indirection through explicit nil in ${nodeString(chain)}`);
    const pipe = this.evalArg(dot, undefined, chain.node);
    return this.evalFieldChain(dot, pipe, false, chain, chain.field, args, final);
  }

  private evalVariableNode(dot: unknown, variable: VariableNode, args: readonly ArgNode[] | undefined, final: Final): unknown {
    this.at(variable);
    const name = variable.ident[0] as string;
    const i = this.varIndex(name);
    const value = this.varValues[i];
    if (variable.ident.length === 1) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, this.varIface[i] as boolean, variable, variable.ident.slice(1), args, final);
  }

  private evalFieldChain(
    dot: unknown,
    receiver: unknown,
    origin: Origin,
    node: Node,
    ident: readonly string[],
    args: readonly ArgNode[] | undefined,
    final: Final,
  ): unknown {
    const n = ident.length;
    for (let i = 0; i < n - 1; i++) {
      const container = receiver;
      receiver = this.evalField(dot, ident[i] as string, node, undefined, MISSING, receiver, origin);
      origin = typeof container === 'object' && container !== null ? container : false;
    }
    return this.evalField(dot, ident[n - 1] as string, node, args, final, receiver, origin);
  }

  private evalFunction(dot: unknown, node: IdentifierNode, cmd: Node, args: readonly ArgNode[] | undefined, final: Final): unknown {
    this.at(node);
    const name = node.ident;
    // Functions given to execute() win over compile-time ones of the same name.
    const overrides = this.overrides;
    if (overrides !== undefined) {
      const fn = overrides[name];
      if (fn !== undefined && Object.hasOwn(overrides, name)) return this.evalCall(dot, fn, false, cmd, name, args, final);
    }
    const resolved = this.env.funcs.get(name);
    if (resolved === undefined) this.errorf(`${goQuote(name)} is not a defined function`);
    return this.evalCall(dot, resolved.fn, resolved.isBuiltin, cmd, name, args, final);
  }

  private evalField(
    dot: unknown,
    fieldName: string,
    node: Node,
    args: readonly ArgNode[] | undefined,
    final: Final,
    receiver: unknown,
    origin: Origin,
  ): unknown {
    if (receiver === undefined) return undefined; // a missing key yields no value (missingkey=default)
    // A nil interface (JSON null in the data) cannot be walked through, unlike a missing key.
    if (receiver === null) this.errorf(`nil pointer evaluating interface {}.${fieldName}`);
    if (isGoObject(receiver)) {
      const method = receiver.goMethod(fieldName);
      if (method !== undefined) return this.evalCall(dot, method, false, node, fieldName, args, final);
    }
    const hasArgs = (args !== undefined && args.length > 1) || final !== MISSING;
    if (isPlainObject(receiver)) {
      if (hasArgs) this.errorf(`${fieldName} is not a method but has arguments`);
      return Object.hasOwn(receiver, fieldName) ? receiver[fieldName] : undefined;
    }
    this.errorf(`can't evaluate field ${fieldName} in type ${staticType(receiver, origin)}`);
  }

  private evalCall(
    dot: unknown,
    fn: TemplateFunc,
    isBuiltin: boolean,
    node: Node,
    name: string,
    args: readonly ArgNode[] | undefined,
    final: Final,
  ): unknown {
    // args[0] names the function; the call's arguments follow it.
    const nargs = args === undefined ? 0 : args.length - 1;
    const sig = signatureOf(fn);
    const params = sig.params;
    const numIn = nargs + (final !== MISSING ? 1 : 0);
    let numFixed = nargs;
    if (sig.variadic !== undefined) {
      numFixed = params.length;
      if (numIn < numFixed) {
        this.errorf(`wrong number of args for ${name}: want at least ${params.length} got ${nargs}`);
      }
    } else if (numIn !== params.length) {
      this.errorf(`wrong number of args for ${name}: want ${params.length} got ${numIn}`);
    }

    // and/or short-circuit and return the deciding value.
    if (isBuiltin && (fn === builtinAnd || fn === builtinOr)) {
      const isOr = fn === builtinOr;
      let v: unknown;
      for (let k = 0; k < nargs; k++) {
        v = this.evalArg(dot, 'value', (args as readonly ArgNode[])[k + 1] as ArgNode);
        if (isTrue(v) === isOr) return v;
      }
      if (final !== MISSING) v = final;
      return v;
    }

    const argv = new Array<unknown>(numIn);
    let i = 0;
    for (; i < numFixed && i < nargs; i++) argv[i] = this.evalArg(dot, params[i] as ParamType, (args as readonly ArgNode[])[i + 1] as ArgNode);
    if (sig.variadic !== undefined) {
      for (; i < nargs; i++) argv[i] = this.evalArg(dot, sig.variadic, (args as readonly ArgNode[])[i + 1] as ArgNode);
    }
    if (final !== MISSING) {
      let t: ParamType | undefined = params[params.length - 1];
      if (sig.variadic !== undefined) t = numIn - 1 < numFixed ? params[numIn - 1] : sig.variadic;
      argv[i] = this.validateType(final, t);
    }

    let target = fn;
    if (isBuiltin && fn === builtinCall) {
      const calleeName = nargs === 0 ? String(final) : nodeString((args as readonly ArgNode[])[1] as ArgNode);
      target = (...a: unknown[]) => callFunction(calleeName, a[0], a.slice(1));
    }

    let result: unknown;
    try {
      result = target(...argv);
    } catch (e) {
      if (e instanceof ExecAbort) throw e;
      this.at(node);
      this.errorf(`error calling ${name}: ${errorText(e)}`, e);
    }
    return result === undefined ? null : result;
  }

  /** Go's validateType: is the value acceptable for a parameter of this type? */
  private validateType(value: unknown, typ: ParamType | undefined): unknown {
    if (value === undefined) {
      if (typ === undefined) return undefined;
      if (canBeNil(typ)) return typ === 'value' ? undefined : null;
      this.errorf(`invalid value; expected ${goTypeOfParam(typ)}`);
    }
    if (typ === undefined || typ === 'value' || typ === 'any') return value;
    if (value === null) this.errorf(`wrong type for value; expected ${goTypeOfParam(typ)}; got interface {}`);
    if (!assignable(value, typ)) {
      this.errorf(`wrong type for value; expected ${goTypeOfParam(typ)}; got ${typeName(value)}`);
    }
    return value;
  }

  private evalArg(dot: unknown, typ: ParamType | undefined, n: ArgNode): unknown {
    this.at(n);
    switch (n.type) {
      case 'dot':
        return this.validateType(dot, typ);
      case 'nil':
        if (typ !== undefined && canBeNil(typ)) return typ === 'value' ? undefined : null;
        this.errorf(`cannot assign nil to ${typ === undefined ? '<nil>' : goTypeOfParam(typ)}`);
      case 'field':
        return this.validateType(this.evalFieldNode(dot, n, [n], MISSING), typ);
      case 'variable':
        return this.validateType(this.evalVariableNode(dot, n, undefined, MISSING), typ);
      case 'pipe':
        return this.validateType(this.evalPipeline(dot, n), typ);
      case 'identifier':
        return this.validateType(this.evalFunction(dot, n, n, undefined, MISSING), typ);
      case 'chain':
        return this.validateType(this.evalChainNode(dot, n, undefined, MISSING), typ);
    }
    switch (typ) {
      case 'bool':
        if (n.type === 'bool') return n.value;
        this.errorf(`expected bool; found ${nodeString(n)}`);
      case 'float64':
        if (n.type === 'number' && n.isFloat) return float64(n.float64);
        this.errorf(`expected float; found ${nodeString(n)}`);
      case 'int':
      case 'int64':
        if (n.type === 'number' && n.isInt) return typ === 'int64' ? n.int64 : Number(n.int64);
        this.errorf(`expected integer; found ${nodeString(n)}`);
      case 'string':
        if (n.type === 'string') return n.text;
        this.errorf(`expected string; found ${nodeString(n)}`);
      case 'any':
      case 'value':
        return this.evalEmptyInterface(n);
    }
    this.errorf(`can't handle ${nodeString(n)} for arg of type ${typ === undefined ? '<nil>' : goTypeOfParam(typ)}`);
  }

  private evalEmptyInterface(n: ArgNode): unknown {
    this.at(n);
    switch (n.type) {
      case 'bool':
        return n.value;
      case 'number':
        return this.idealConstant(n);
      case 'string':
        return n.text;
    }
    this.errorf(`can't handle assignment of ${nodeString(n)} to empty interface argument`);
  }

  private printValue(n: Node, v: unknown): void {
    this.at(n);
    if (v === undefined) {
      this.out += '<no value>';
      return;
    }
    if (typeof v === 'string') {
      this.out += v;
      return;
    }
    if (typeof v === 'function') this.errorf(`can't print ${nodeString(n)} of type ${typeName(v)}`);
    this.out += formatValue(v);
  }
}

function isHexInt(s: string): boolean {
  return s.length > 2 && s[0] === '0' && (s[1] === 'x' || s[1] === 'X') && !/[pP]/.test(s);
}

/** Whether a concrete value can be passed as a parameter of type typ without conversion. */
function assignable(v: unknown, typ: ParamType): boolean {
  switch (typ) {
    case 'string':
      return typeof v === 'string';
    case 'bool':
      return typeof v === 'boolean';
    case 'int':
      return kindOf(v) === 'int';
    case 'int64':
      return typeof v === 'bigint';
    case 'float64':
      return kindOf(v) === 'float64';
    case 'map':
      return isPlainObject(v) && typeName(v) === 'map[string]interface {}';
    case 'time':
      return isGoObject(v) && v.goTypeName === 'time.Time';
    default:
      return true;
  }
}

/** The builtin "call": invoke a function value with the remaining arguments. */
function callFunction(name: string, fn: unknown, args: unknown[]): unknown {
  const f = fn === null ? undefined : fn;
  if (f === undefined) throw new FuncError('call of nil');
  if (typeof f !== 'function') throw new FuncError(`non-function ${name} of type ${typeName(f)}`);
  const sig = signatureOf(f as TemplateFunc);
  const numIn = sig.params.length;
  if (sig.variadic !== undefined) {
    if (args.length < numIn) throw new FuncError(`wrong number of args for ${name}: got ${args.length} want at least ${numIn}`);
  } else if (args.length !== numIn) {
    throw new FuncError(`wrong number of args for ${name}: got ${args.length} want ${numIn}`);
  }
  const argv = args.map((a, i) => {
    const t = i < numIn ? (sig.params[i] as ParamType) : (sig.variadic as ParamType);
    const v = a === null ? undefined : a;
    if (v === undefined) {
      if (!canBeNil(t)) throw new FuncError(`arg ${i}: value is nil; should be of type ${goTypeOfParam(t)}`);
      return t === 'value' ? undefined : null;
    }
    if (t !== 'any' && t !== 'value' && !assignable(v, t)) {
      throw new FuncError(`arg ${i}: value has type ${typeName(v)}; should be ${goTypeOfParam(t)}`);
    }
    return v;
  });
  const result = (f as TemplateFunc)(...argv);
  return result === undefined ? null : result;
}

function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return sprint([e]);
}

/** Executes the named tree against data; throws TemplateError with the partial output attached. */
export function execute(env: ExecEnv, name: string, data: unknown, overrides: FuncMap | undefined): string {
  const tree = env.trees.get(name);
  const state: State = new State(name, env, overrides);
  state.push('$', data);
  try {
    if (tree === undefined) state.errorf(`${goQuote(name)} is an incomplete or empty template`);
    state.walk(data, tree.root);
  } catch (e) {
    if (e instanceof ExecAbort) {
      e.error.output = state.out;
      throw e.error;
    }
    throw e;
  }
  return state.out;
}

