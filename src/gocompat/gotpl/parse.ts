/*
 * Parser for Go text/template, ported from Go's src/text/template/parse/parse.go and node.go.
 *
 * Copyright 2011 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 */
import { parseError, TemplateError } from './errors.js';
import { parseFloat64, parseInt64, parseUint64 } from './go-numbers.js';
import { ItemType, Lexer, type Item } from './lex.js';
import type {
  ArgNode,
  BranchNode,
  CommandNode,
  ElseNode,
  ListNode,
  Node,
  NumberNode,
  PipeNode,
  Source,
  TemplateNode,
  Tree,
  VariableNode,
} from './nodes.js';
import { goQuote, goUnquote, unquoteCharConstant } from './quote.js';

// Go allows 10000 nested parenthesized expressions natively and 1000 on wasm; a JS stack fits the latter.
const MAX_STACK_DEPTH = 1000;

/** Parsing stops by throwing; TemplateError carries the message Go would produce. */
class ParseAbort extends Error {
  constructor(readonly error: TemplateError) {
    super(error.message);
  }
}

function describeItem(i: Item): string {
  switch (true) {
    case i.typ === ItemType.EOF:
      return 'EOF';
    case i.typ === ItemType.Error:
      return i.val;
    case i.typ > ItemType.Keyword:
      return `<${i.val}>`;
    case [...i.val].length > 10: {
      // Go's %.10q: quote the first ten runes.
      return `${goQuote([...i.val].slice(0, 10).join(''))}...`;
    }
  }
  return goQuote(i.val);
}

function describeNode(n: Node): string {
  if (n.type === 'end') return '{{end}}';
  if (n.type === 'else') return '{{else}}';
  return n.type;
}

export interface ParseOptions {
  /** Reports whether a function name is defined; unknown identifiers are parse errors, as in Go. */
  hasFunction: (name: string) => boolean;
}

/** Parses text into its trees: the top-level template under `name` plus every {{define}}/{{block}}. */
export function parseTemplate(name: string, text: string, options: ParseOptions): Map<string, Tree> {
  const treeSet = new Map<string, Tree>();
  const src: Source = { parseName: name, text };
  const lex = new Lexer(name, text);
  lex.options = {
    emitComment: false,
    breakOK: !options.hasFunction('break'),
    continueOK: !options.hasFunction('continue'),
  };
  const parser = new Parser(name, src, lex, treeSet, options);
  try {
    parser.parse();
    parser.add();
  } catch (e) {
    if (e instanceof ParseAbort) throw e.error;
    throw e;
  }
  return treeSet;
}

class Parser {
  private readonly token: Item[] = [];
  private peekCount = 0;
  private vars: string[] = ['$'];
  private actionLine = 0;
  private rangeDepth = 0;
  private stackDepth = 0;
  root: ListNode | undefined;

  constructor(
    private name: string,
    private readonly src: Source,
    private readonly lex: Lexer,
    private readonly treeSet: Map<string, Tree>,
    private readonly options: ParseOptions,
  ) {}

  // Token handling: a three-token lookahead, as in Go.

  private next(): Item {
    if (this.peekCount > 0) {
      this.peekCount--;
    } else {
      this.token[0] = this.lex.nextItem();
    }
    return this.token[this.peekCount] as Item;
  }

  private backup(): void {
    this.peekCount++;
  }

  private backup2(t1: Item): void {
    this.token[1] = t1;
    this.peekCount = 2;
  }

  private backup3(t2: Item, t1: Item): void {
    this.token[1] = t1;
    this.token[2] = t2;
    this.peekCount = 3;
  }

  private peek(): Item {
    if (this.peekCount > 0) return this.token[this.peekCount - 1] as Item;
    this.peekCount = 1;
    this.token[0] = this.lex.nextItem();
    return this.token[0];
  }

  private nextNonSpace(): Item {
    let token: Item;
    do {
      token = this.next();
    } while (token.typ === ItemType.Space);
    return token;
  }

  private peekNonSpace(): Item {
    const token = this.nextNonSpace();
    this.backup();
    return token;
  }

  private errorf(message: string): never {
    this.root = undefined;
    const line = this.token[0]?.line ?? 1;
    throw new ParseAbort(parseError(this.src.parseName, line, message));
  }

  private expect(expected: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== expected) this.unexpected(token, context);
    return token;
  }

  private expectOneOf(expected1: ItemType, expected2: ItemType, context: string): Item {
    const token = this.nextNonSpace();
    if (token.typ !== expected1 && token.typ !== expected2) this.unexpected(token, context);
    return token;
  }

  private unexpected(token: Item, context: string): never {
    if (token.typ === ItemType.Error) {
      let extra = '';
      if (this.actionLine !== 0 && this.actionLine !== token.line) {
        extra = ` in action started at ${this.src.parseName}:${this.actionLine}`;
        if (token.val.endsWith(' action')) extra = extra.slice(' in action'.length);
      }
      this.errorf(`${describeItem(token)}${extra}`);
    }
    this.errorf(`unexpected ${describeItem(token)} in ${context}`);
  }

  // Tree building.

  add(): void {
    const existing = this.treeSet.get(this.name);
    const root = this.root as ListNode;
    if (existing === undefined || isEmptyTree(existing.root)) {
      this.treeSet.set(this.name, { name: this.name, src: this.src, root });
      return;
    }
    if (!isEmptyTree(root)) this.errorf(`template: multiple definition of template ${goQuote(this.name)}`);
  }

  /** A sub-parser for {{define}} and {{block}}, sharing this lexer and tree set. */
  private child(name: string): Parser {
    const p = new Parser(name, this.src, this.lex, this.treeSet, this.options);
    return p;
  }

  parse(): void {
    this.root = this.newList(this.peek().pos);
    while (this.peek().typ !== ItemType.EOF) {
      if (this.peek().typ === ItemType.LeftDelim) {
        const delim = this.next();
        if (this.nextNonSpace().typ === ItemType.Define) {
          const newT = this.child('definition');
          newT.parseDefinition();
          continue;
        }
        this.backup2(delim);
      }
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') this.errorf(`unexpected ${describeNode(n)}`);
      this.root.nodes.push(n);
    }
  }

  private parseDefinition(): void {
    const context = 'define clause';
    const name = this.expectOneOf(ItemType.String, ItemType.RawString, context);
    this.name = this.unquote(name.val);
    this.expect(ItemType.RightDelim, context);
    const [list, end] = this.itemList();
    this.root = list;
    if (end.type !== 'end') this.errorf(`unexpected ${describeNode(end)} in ${context}`);
    this.add();
  }

  private itemList(): [ListNode, Node] {
    const list = this.newList(this.peekNonSpace().pos);
    while (this.peekNonSpace().typ !== ItemType.EOF) {
      const n = this.textOrAction();
      if (n.type === 'end' || n.type === 'else') return [list, n];
      list.nodes.push(n);
    }
    this.errorf('unexpected EOF');
  }

  private textOrAction(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Text:
        return { type: 'text', pos: token.pos, src: this.src, text: token.val };
      case ItemType.LeftDelim:
        this.actionLine = token.line;
        try {
          return this.action();
        } finally {
          this.actionLine = 0;
        }
      case ItemType.Comment:
        return { type: 'comment', pos: token.pos, src: this.src, text: token.val };
      default:
        this.unexpected(token, 'input');
    }
  }

  private action(): Node {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Block:
        return this.blockControl();
      case ItemType.Break:
        return this.breakControl(token.pos, token.line);
      case ItemType.Continue:
        return this.continueControl(token.pos, token.line);
      case ItemType.Else:
        return this.elseControl();
      case ItemType.End:
        return this.endControl();
      case ItemType.If:
        return this.ifControl();
      case ItemType.Range:
        return this.rangeControl();
      case ItemType.Template:
        return this.templateControl();
      case ItemType.With:
        return this.withControl();
    }
    this.backup();
    const peeked = this.peek();
    // Variables declared here are not popped: they persist until the enclosing {{end}}.
    return { type: 'action', pos: peeked.pos, src: this.src, line: peeked.line, pipe: this.pipeline('command', ItemType.RightDelim) };
  }

  private breakControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.typ !== ItemType.RightDelim) this.unexpected(token, '{{break}}');
    if (this.rangeDepth === 0) this.errorf('{{break}} outside {{range}}');
    return { type: 'break', pos, src: this.src, line };
  }

  private continueControl(pos: number, line: number): Node {
    const token = this.nextNonSpace();
    if (token.typ !== ItemType.RightDelim) this.unexpected(token, '{{continue}}');
    if (this.rangeDepth === 0) this.errorf('{{continue}} outside {{range}}');
    return { type: 'continue', pos, src: this.src, line };
  }

  private pipeline(context: string, end: ItemType): PipeNode {
    const token = this.peekNonSpace();
    const pipe: PipeNode = { type: 'pipe', pos: token.pos, src: this.src, line: token.line, isAssign: false, decl: [], cmds: [] };
    // Declarations need three tokens of lookahead: in "$x foo", "foo" (not ":=") shows $x is an argument.
    decls: for (;;) {
      const v = this.peekNonSpace();
      if (v.typ !== ItemType.Variable) break;
      this.next();
      const tokenAfterVariable = this.peek();
      const next = this.peekNonSpace();
      if (next.typ === ItemType.Assign || next.typ === ItemType.Declare) {
        pipe.isAssign = next.typ === ItemType.Assign;
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
      } else if (next.typ === ItemType.Char && next.val === ',') {
        this.nextNonSpace();
        pipe.decl.push(this.newVariable(v.pos, v.val));
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().typ;
          if (t === ItemType.Variable || t === ItemType.RightDelim || t === ItemType.RightParen) {
            continue decls; // second initialized variable in a range pipeline
          }
          this.errorf('range can only initialize variables');
        }
        this.errorf(`too many declarations in ${context}`);
      } else if (tokenAfterVariable.typ === ItemType.Space) {
        this.backup3(v, tokenAfterVariable);
      } else {
        this.backup2(v);
      }
      break;
    }
    for (;;) {
      const t = this.nextNonSpace();
      switch (t.typ) {
        case end:
          this.checkPipeline(pipe, context);
          return pipe;
        case ItemType.Bool:
        case ItemType.CharConstant:
        case ItemType.Complex:
        case ItemType.Dot:
        case ItemType.Field:
        case ItemType.Identifier:
        case ItemType.Number:
        case ItemType.Nil:
        case ItemType.RawString:
        case ItemType.String:
        case ItemType.Variable:
        case ItemType.LeftParen:
          this.backup();
          pipe.cmds.push(this.command());
          break;
        default:
          this.unexpected(t, context);
      }
    }
  }

  private checkPipeline(pipe: PipeNode, context: string): void {
    if (pipe.cmds.length === 0) this.errorf(`missing value for ${context}`);
    // Only the first command of a pipeline can start with a non-executable operand.
    for (let i = 1; i < pipe.cmds.length; i++) {
      const first = (pipe.cmds[i] as CommandNode).args[0] as ArgNode;
      switch (first.type) {
        case 'bool':
        case 'dot':
        case 'nil':
        case 'number':
        case 'string':
          this.errorf(`non executable command in pipeline stage ${i + 1}`);
      }
    }
  }

  private parseControl(context: 'if' | 'range' | 'with'): Omit<BranchNode, 'type'> {
    const mark = this.vars.length;
    try {
      const pipe = this.pipeline(context, ItemType.RightDelim);
      if (context === 'range') this.rangeDepth++;
      let [list, next] = this.itemList();
      if (context === 'range') this.rangeDepth--;
      let elseList: ListNode | undefined;
      if (next.type === 'else') {
        // "{{else if}}" / "{{else with}}" parse as a nested if/with whose {{end}} closes both.
        if (context === 'if' && this.peek().typ === ItemType.If) {
          this.next();
          elseList = this.newList(next.pos);
          elseList.nodes.push(this.ifControl());
        } else if (context === 'with' && this.peek().typ === ItemType.With) {
          this.next();
          elseList = this.newList(next.pos);
          elseList.nodes.push(this.withControl());
        } else {
          [elseList, next] = this.itemList();
          if (next.type !== 'end') this.errorf(`expected end; found ${describeNode(next)}`);
        }
      }
      return { pos: pipe.pos, src: this.src, line: pipe.line, pipe, list, elseList };
    } finally {
      this.vars.length = mark;
    }
  }

  private ifControl(): BranchNode {
    return { type: 'if', ...this.parseControl('if') };
  }

  private rangeControl(): BranchNode {
    return { type: 'range', ...this.parseControl('range') };
  }

  private withControl(): BranchNode {
    return { type: 'with', ...this.parseControl('with') };
  }

  private endControl(): Node {
    return { type: 'end', pos: this.expect(ItemType.RightDelim, 'end').pos, src: this.src };
  }

  private elseControl(): ElseNode {
    const peek = this.peekNonSpace();
    // "{{else if ...": leave the "if"/"with" pending for parseControl.
    if (peek.typ === ItemType.If || peek.typ === ItemType.With) {
      return { type: 'else', pos: peek.pos, src: this.src, line: peek.line };
    }
    const token = this.expect(ItemType.RightDelim, 'else');
    return { type: 'else', pos: token.pos, src: this.src, line: token.line };
  }

  private blockControl(): TemplateNode {
    const context = 'block clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    const pipe = this.pipeline(context, ItemType.RightDelim);
    const block = this.child(name);
    const [list, end] = block.itemList();
    block.root = list;
    if (end.type !== 'end') this.errorf(`unexpected ${describeNode(end)} in ${context}`);
    block.add();
    return { type: 'template', pos: token.pos, src: this.src, line: token.line, name, pipe };
  }

  private templateControl(): TemplateNode {
    const context = 'template clause';
    const token = this.nextNonSpace();
    const name = this.parseTemplateName(token, context);
    let pipe: PipeNode | undefined;
    if (this.nextNonSpace().typ !== ItemType.RightDelim) {
      this.backup();
      pipe = this.pipeline(context, ItemType.RightDelim);
    }
    return { type: 'template', pos: token.pos, src: this.src, line: token.line, name, pipe };
  }

  private parseTemplateName(token: Item, context: string): string {
    if (token.typ === ItemType.String || token.typ === ItemType.RawString) return this.unquote(token.val);
    this.unexpected(token, context);
  }

  private command(): CommandNode {
    const cmd: CommandNode = { type: 'command', pos: this.peekNonSpace().pos, src: this.src, args: [] };
    for (;;) {
      this.peekNonSpace(); // skip leading spaces
      const operand = this.operand();
      if (operand !== undefined) cmd.args.push(operand);
      const token = this.next();
      if (token.typ === ItemType.Space) continue;
      if (token.typ === ItemType.RightDelim || token.typ === ItemType.RightParen) {
        this.backup();
      } else if (token.typ !== ItemType.Pipe) {
        this.unexpected(token, 'operand');
      }
      break;
    }
    if (cmd.args.length === 0) this.errorf('empty command');
    return cmd;
  }

  private operand(): ArgNode | undefined {
    const node = this.term();
    if (node === undefined) return undefined;
    if (this.peek().typ !== ItemType.Field) return node;
    const chainPos = this.peek().pos;
    const fields: string[] = [];
    while (this.peek().typ === ItemType.Field) fields.push(this.next().val.slice(1));
    // Fields on a field or variable extend it; other terms keep a chain node for execution.
    switch (node.type) {
      case 'field':
        return { type: 'field', pos: chainPos, src: this.src, ident: [...node.ident, ...fields] };
      case 'variable':
        return { type: 'variable', pos: chainPos, src: this.src, ident: [...node.ident, ...fields] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.errorf(`unexpected . after term ${goQuote(nodeText(node))}`);
    }
    return { type: 'chain', pos: chainPos, src: this.src, node, field: fields };
  }

  private term(): ArgNode | undefined {
    const token = this.nextNonSpace();
    switch (token.typ) {
      case ItemType.Identifier:
        if (!this.options.hasFunction(token.val)) this.errorf(`function ${goQuote(token.val)} not defined`);
        return { type: 'identifier', pos: token.pos, src: this.src, ident: token.val };
      case ItemType.Dot:
        return { type: 'dot', pos: token.pos, src: this.src };
      case ItemType.Nil:
        return { type: 'nil', pos: token.pos, src: this.src };
      case ItemType.Variable:
        return this.useVar(token.pos, token.val);
      case ItemType.Field:
        return { type: 'field', pos: token.pos, src: this.src, ident: token.val.split('.').slice(1) };
      case ItemType.Bool:
        return { type: 'bool', pos: token.pos, src: this.src, value: token.val === 'true' };
      case ItemType.CharConstant:
      case ItemType.Complex:
      case ItemType.Number:
        return this.newNumber(token.pos, token.val, token.typ);
      case ItemType.LeftParen: {
        if (this.stackDepth >= MAX_STACK_DEPTH) this.errorf('max expression depth exceeded');
        this.stackDepth++;
        try {
          return this.pipeline('parenthesized pipeline', ItemType.RightParen);
        } finally {
          this.stackDepth--;
        }
      }
      case ItemType.String:
      case ItemType.RawString:
        return { type: 'string', pos: token.pos, src: this.src, quoted: token.val, text: this.unquote(token.val) };
    }
    this.backup();
    return undefined;
  }

  private unquote(quoted: string): string {
    try {
      return goUnquote(quoted);
    } catch (e) {
      this.errorf((e as Error).message);
    }
  }

  private useVar(pos: number, name: string): VariableNode {
    const v = this.newVariable(pos, name);
    if (this.vars.includes(v.ident[0] as string)) return v;
    this.errorf(`undefined variable ${goQuote(v.ident[0] as string)}`);
  }

  private newVariable(pos: number, name: string): VariableNode {
    return { type: 'variable', pos, src: this.src, ident: name.split('.') };
  }

  private newList(pos: number): ListNode {
    return { type: 'list', pos, src: this.src, nodes: [] };
  }

  private newNumber(pos: number, text: string, typ: ItemType): NumberNode {
    try {
      return buildNumber(pos, this.src, text, typ);
    } catch (e) {
      this.errorf((e as Error).message);
    }
  }
}

function nodeText(n: ArgNode): string {
  switch (n.type) {
    case 'bool':
      return n.value ? 'true' : 'false';
    case 'string':
      return n.quoted;
    case 'number':
      return n.text;
    case 'nil':
      return 'nil';
    default:
      return '.';
  }
}

/** Go's IsEmptyTree: only spaces and comments. */
function isEmptyTree(n: Node | undefined): boolean {
  if (n === undefined) return true;
  switch (n.type) {
    case 'comment':
      return true;
    case 'list':
      return n.nodes.every(isEmptyTree);
    case 'text':
      return n.text.trim().length === 0;
    default:
      return false;
  }
}

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;
const UINT64_MAX = (1n << 64n) - 1n;

/** Go's newNumber: classify a literal as int, uint, float and/or complex. */
function buildNumber(pos: number, src: Source, text: string, typ: ItemType): NumberNode {
  const n = {
    type: 'number' as const,
    pos,
    src,
    text,
    isInt: false,
    isUint: false,
    isFloat: false,
    isComplex: false,
    int64: 0n,
    uint64: 0n,
    float64: 0,
    complex: { re: 0, im: 0 },
  };
  if (typ === ItemType.CharConstant) {
    const { value, wellFormed } = unquoteCharConstant(text);
    if (!wellFormed) throw new Error(`malformed character constant: ${text}`);
    return { ...n, isInt: true, int64: BigInt(value), isUint: true, uint64: BigInt(value), isFloat: true, float64: value };
  }
  if (typ === ItemType.Complex) {
    const m = /^([+-]?[^+-]+)([+-].+)i$/.exec(text);
    const re = m ? parseFloat64(m[1] as string) : undefined;
    const im = m ? parseFloat64(m[2] as string) : undefined;
    if (re === undefined || im === undefined) throw new Error('expected integer');
    return simplifyComplex({ ...n, isComplex: true, complex: { re, im } });
  }
  if (text.endsWith('i')) {
    const f = parseFloat64(text.slice(0, -1));
    if (f !== undefined) return simplifyComplex({ ...n, isComplex: true, complex: { re: 0, im: f } });
  }
  const u = parseUint64(text);
  if (u !== undefined) {
    n.isUint = true;
    n.uint64 = u;
  }
  const i = parseInt64(text);
  if (i !== undefined) {
    n.isInt = true;
    n.int64 = i;
    if (i === 0n) {
      n.isUint = true; // in case of -0
      n.uint64 = u ?? 0n;
    }
  }
  if (n.isInt) {
    n.isFloat = true;
    n.float64 = Number(n.int64);
  } else if (n.isUint) {
    n.isFloat = true;
    n.float64 = Number(n.uint64);
  } else {
    const f = parseFloat64(text);
    if (f !== undefined) {
      // Parsed as a float but looks like an integer: too large for an int.
      if (!/[.eEpP]/.test(text)) throw new Error(`integer overflow: ${goQuote(text)}`);
      n.isFloat = true;
      n.float64 = f;
      if (Number.isInteger(f)) {
        const b = BigInt(f);
        if (b >= INT64_MIN && b <= INT64_MAX) {
          n.isInt = true;
          n.int64 = b;
        }
        if (b >= 0n && b <= UINT64_MAX) {
          n.isUint = true;
          n.uint64 = b;
        }
      }
    }
  }
  if (!n.isInt && !n.isUint && !n.isFloat) throw new Error(`illegal number syntax: ${goQuote(text)}`);
  return n;
}

function simplifyComplex(n: NumberNode): NumberNode {
  if (n.complex.im !== 0) return n;
  const f = n.complex.re;
  const result = { ...n, isFloat: true, float64: f };
  if (Number.isInteger(f)) {
    const b = BigInt(f);
    if (b >= INT64_MIN && b <= INT64_MAX) Object.assign(result, { isInt: true, int64: b });
    if (b >= 0n && b <= UINT64_MAX) Object.assign(result, { isUint: true, uint64: b });
  }
  return result;
}
