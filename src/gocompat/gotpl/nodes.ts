/*
 * Parse tree for Go text/template, modelled on Go's src/text/template/parse/node.go.
 *
 * Copyright 2011 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 */
import { goQuote } from './quote.js';

/** The text a node came from, so errors can report Go-style line:column positions. */
export interface Source {
  /** Name of the top-level template being parsed (Go's ParseName). */
  readonly parseName: string;
  readonly text: string;
}

interface Base {
  readonly pos: number;
  readonly src: Source;
}

export interface TextNode extends Base {
  readonly type: 'text';
  readonly text: string;
}

export interface CommentNode extends Base {
  readonly type: 'comment';
  readonly text: string;
}

export interface ListNode extends Base {
  readonly type: 'list';
  readonly nodes: Node[];
}

export interface VariableNode extends Base {
  readonly type: 'variable';
  /** "$x" followed by any field names: "$x.a.b" is ["$x", "a", "b"]. */
  readonly ident: readonly string[];
}

export interface PipeNode extends Base {
  readonly type: 'pipe';
  readonly line: number;
  isAssign: boolean;
  readonly decl: VariableNode[];
  readonly cmds: CommandNode[];
}

export interface ActionNode extends Base {
  readonly type: 'action';
  readonly line: number;
  readonly pipe: PipeNode;
}

export interface CommandNode extends Base {
  readonly type: 'command';
  readonly args: ArgNode[];
}

export interface IdentifierNode extends Base {
  readonly type: 'identifier';
  readonly ident: string;
}

export interface DotNode extends Base {
  readonly type: 'dot';
}

export interface NilNode extends Base {
  readonly type: 'nil';
}

export interface FieldNode extends Base {
  readonly type: 'field';
  readonly ident: readonly string[];
}

export interface ChainNode extends Base {
  readonly type: 'chain';
  readonly node: ArgNode;
  readonly field: string[];
}

export interface BoolNode extends Base {
  readonly type: 'bool';
  readonly value: boolean;
}

export interface NumberNode extends Base {
  readonly type: 'number';
  readonly text: string;
  readonly isInt: boolean;
  readonly isUint: boolean;
  readonly isFloat: boolean;
  readonly isComplex: boolean;
  readonly int64: bigint;
  readonly uint64: bigint;
  readonly float64: number;
  readonly complex: { readonly re: number; readonly im: number };
}

export interface StringNode extends Base {
  readonly type: 'string';
  readonly quoted: string;
  readonly text: string;
}

export interface BranchNode extends Base {
  readonly type: 'if' | 'range' | 'with';
  readonly line: number;
  readonly pipe: PipeNode;
  readonly list: ListNode;
  readonly elseList: ListNode | undefined;
}

export interface BreakNode extends Base {
  readonly type: 'break';
  readonly line: number;
}

export interface ContinueNode extends Base {
  readonly type: 'continue';
  readonly line: number;
}

export interface TemplateNode extends Base {
  readonly type: 'template';
  readonly line: number;
  readonly name: string;
  readonly pipe: PipeNode | undefined;
}

/** Internal markers returned by the parser for {{end}} and {{else}}; never part of a finished tree. */
export interface EndNode extends Base {
  readonly type: 'end';
}

export interface ElseNode extends Base {
  readonly type: 'else';
  readonly line: number;
}

/** Anything that can appear as an operand of a command. */
export type ArgNode =
  | IdentifierNode
  | DotNode
  | NilNode
  | FieldNode
  | VariableNode
  | ChainNode
  | BoolNode
  | NumberNode
  | StringNode
  | PipeNode;

export type Node =
  | TextNode
  | CommentNode
  | ListNode
  | ActionNode
  | BranchNode
  | BreakNode
  | ContinueNode
  | TemplateNode
  | EndNode
  | ElseNode
  | CommandNode
  | ArgNode;

/** A parsed template: one per {{define}}, plus the top-level text. */
export interface Tree {
  readonly name: string;
  readonly src: Source;
  root: ListNode;
}

/** Renders a node back to template syntax, as Go's Node.String does (used in error contexts). */
export function nodeString(n: Node): string {
  const parts: string[] = [];
  writeNode(n, parts);
  return parts.join('');
}

function writePipe(p: PipeNode, out: string[]): void {
  if (p.decl.length > 0) {
    p.decl.forEach((v, i) => {
      if (i > 0) out.push(', ');
      writeNode(v, out);
    });
    out.push(p.isAssign ? ' = ' : ' := ');
  }
  p.cmds.forEach((c, i) => {
    if (i > 0) out.push(' | ');
    writeNode(c, out);
  });
}

function writeNode(n: Node, out: string[]): void {
  switch (n.type) {
    case 'text':
      out.push(n.text);
      return;
    case 'comment':
      out.push('{{', n.text, '}}');
      return;
    case 'list':
      for (const c of n.nodes) writeNode(c, out);
      return;
    case 'action':
      out.push('{{');
      writePipe(n.pipe, out);
      out.push('}}');
      return;
    case 'pipe':
      writePipe(n, out);
      return;
    case 'command':
      n.args.forEach((a, i) => {
        if (i > 0) out.push(' ');
        if (a.type === 'pipe') {
          out.push('(');
          writePipe(a, out);
          out.push(')');
        } else {
          writeNode(a, out);
        }
      });
      return;
    case 'identifier':
      out.push(n.ident);
      return;
    case 'variable':
      out.push(n.ident.join('.'));
      return;
    case 'dot':
      out.push('.');
      return;
    case 'nil':
      out.push('nil');
      return;
    case 'field':
      for (const f of n.ident) out.push('.', f);
      return;
    case 'chain':
      if (n.node.type === 'pipe') {
        out.push('(');
        writePipe(n.node, out);
        out.push(')');
      } else {
        writeNode(n.node, out);
      }
      for (const f of n.field) out.push('.', f);
      return;
    case 'bool':
      out.push(n.value ? 'true' : 'false');
      return;
    case 'number':
      out.push(n.text);
      return;
    case 'string':
      out.push(n.quoted);
      return;
    case 'if':
    case 'range':
    case 'with':
      out.push('{{', n.type, ' ');
      writePipe(n.pipe, out);
      out.push('}}');
      writeNode(n.list, out);
      if (n.elseList) {
        out.push('{{else}}');
        writeNode(n.elseList, out);
      }
      out.push('{{end}}');
      return;
    case 'break':
      out.push('{{break}}');
      return;
    case 'continue':
      out.push('{{continue}}');
      return;
    case 'template':
      out.push('{{template ', goQuote(n.name));
      if (n.pipe) {
        out.push(' ');
        writePipe(n.pipe, out);
      }
      out.push('}}');
      return;
    case 'end':
      out.push('{{end}}');
      return;
    case 'else':
      out.push('{{else}}');
      return;
  }
}

/** Go's Tree.ErrorContext: "name:line:col" with a 0-based byte column, as Go reports it. */
export function errorLocation(n: Node): { location: string; line: number; col: number } {
  const { text } = n.src;
  const before = text.slice(0, n.pos);
  const lastNewline = before.lastIndexOf('\n');
  const lineText = lastNewline === -1 ? before : before.slice(lastNewline + 1);
  const col = Buffer.byteLength(lineText, 'utf8');
  let line = 1;
  for (let i = before.indexOf('\n'); i >= 0; i = before.indexOf('\n', i + 1)) line++;
  return { location: `${n.src.parseName}:${line}:${col}`, line, col };
}
