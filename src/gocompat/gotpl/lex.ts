/*
 * Lexer for Go text/template, ported from Go's src/text/template/parse/lex.go.
 *
 * Copyright 2011 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 *
 * Positions are UTF-16 offsets into the template text; errors convert them to Go's byte columns.
 */

import { goQuote, isPrint } from './quote.js';

export enum ItemType {
  Error,
  Bool,
  Char,
  CharConstant,
  Comment,
  Complex,
  Assign,
  Declare,
  EOF,
  Field,
  Identifier,
  LeftDelim,
  LeftParen,
  Number,
  Pipe,
  RawString,
  RightDelim,
  RightParen,
  Space,
  String,
  Text,
  Variable,
  // Keywords appear after all the rest.
  Keyword,
  Block,
  Break,
  Continue,
  Dot,
  Define,
  Else,
  End,
  If,
  Nil,
  Range,
  Template,
  With,
}

export interface Item {
  readonly typ: ItemType;
  readonly pos: number;
  readonly val: string;
  readonly line: number;
}

const KEYWORDS: ReadonlyMap<string, ItemType> = new Map([
  ['.', ItemType.Dot],
  ['block', ItemType.Block],
  ['break', ItemType.Break],
  ['continue', ItemType.Continue],
  ['define', ItemType.Define],
  ['else', ItemType.Else],
  ['end', ItemType.End],
  ['if', ItemType.If],
  ['range', ItemType.Range],
  ['nil', ItemType.Nil],
  ['template', ItemType.Template],
  ['with', ItemType.With],
]);

const EOF = -1;
const LEFT_DELIM = '{{';
const RIGHT_DELIM = '}}';
const LEFT_COMMENT = '/*';
const RIGHT_COMMENT = '*/';
// The trim marker must be followed (left) or preceded (right) by an ASCII space, so "{{-3}}" stays a number.
const TRIM_MARKER_LEN = 2;

export interface LexOptions {
  emitComment: boolean;
  breakOK: boolean;
  continueOK: boolean;
}

type StateFn = ((l: Lexer) => StateFn) | null;

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]/u;

export function isAlphaNumeric(c: number): boolean {
  if (c < 0) return false;
  if (c < 0x80) {
    return c === 0x5f || (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
  }
  return LETTER_OR_DIGIT.test(String.fromCodePoint(c));
}

function hasLeftTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && s.charCodeAt(at) === 0x2d && isSpace(s.charCodeAt(at + 1));
}

function hasRightTrimMarker(s: string, at: number): boolean {
  return s.length - at >= 2 && isSpace(s.charCodeAt(at)) && s.charCodeAt(at + 1) === 0x2d;
}

function countNewlines(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = s.indexOf('\n', from); i >= 0 && i < to; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

function trimRightSpaceLength(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(s.charCodeAt(i - 1))) i--;
  return to - i;
}

function trimLeftSpaceLength(s: string, from: number): number {
  let i = from;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  return i - from;
}

export class Lexer {
  pos = 0;
  start = 0;
  atEOF = false;
  parenDepth = 0;
  line = 1;
  startLine = 1;
  item: Item;
  insideAction = false;
  options: LexOptions = { emitComment: false, breakOK: true, continueOK: true };

  constructor(
    readonly name: string,
    public input: string,
  ) {
    this.item = { typ: ItemType.EOF, pos: 0, val: 'EOF', line: 1 };
  }

  nextItem(): Item {
    this.item = { typ: ItemType.EOF, pos: this.pos, val: 'EOF', line: this.startLine };
    let state: StateFn = this.insideAction ? lexInsideAction : lexText;
    while (state !== null) state = state(this);
    return this.item;
  }

  /** Returns the next code point, or EOF. */
  next(): number {
    if (this.pos >= this.input.length) {
      this.atEOF = true;
      return EOF;
    }
    const c = this.input.codePointAt(this.pos) as number;
    this.pos += c > 0xffff ? 2 : 1;
    if (c === 0x0a) this.line++;
    return c;
  }

  peek(): number {
    if (this.pos >= this.input.length) return EOF;
    return this.input.codePointAt(this.pos) as number;
  }

  backup(): void {
    if (!this.atEOF && this.pos > 0) {
      const low = this.input.charCodeAt(this.pos - 1);
      const isPair = low >= 0xdc00 && low <= 0xdfff && this.pos >= 2 && isHighSurrogate(this.input.charCodeAt(this.pos - 2));
      this.pos -= isPair ? 2 : 1;
      if (low === 0x0a) this.line--;
    }
  }

  thisItem(typ: ItemType): Item {
    const item: Item = { typ, pos: this.start, val: this.input.slice(this.start, this.pos), line: this.startLine };
    this.start = this.pos;
    this.startLine = this.line;
    return item;
  }

  emit(typ: ItemType): StateFn {
    return this.emitItem(this.thisItem(typ));
  }

  emitItem(item: Item): StateFn {
    this.item = item;
    return null;
  }

  ignore(): void {
    this.line += countNewlines(this.input, this.start, this.pos);
    this.start = this.pos;
    this.startLine = this.line;
  }

  accept(valid: string): boolean {
    const c = this.next();
    if (c !== EOF && valid.includes(String.fromCodePoint(c))) return true;
    this.backup();
    return false;
  }

  acceptRun(valid: string): void {
    for (;;) {
      const c = this.next();
      if (c === EOF || !valid.includes(String.fromCodePoint(c))) break;
    }
    this.backup();
  }

  errorf(message: string): StateFn {
    this.item = { typ: ItemType.Error, pos: this.start, val: message, line: this.startLine };
    this.start = 0;
    this.pos = 0;
    this.input = '';
    return null;
  }

  atRightDelim(): { delim: boolean; trimSpaces: boolean } {
    if (hasRightTrimMarker(this.input, this.pos) && this.input.startsWith(RIGHT_DELIM, this.pos + TRIM_MARKER_LEN)) {
      return { delim: true, trimSpaces: true };
    }
    if (this.input.startsWith(RIGHT_DELIM, this.pos)) return { delim: true, trimSpaces: false };
    return { delim: false, trimSpaces: false };
  }

  /** Identifiers and fields must end at a space, punctuation that can follow them, or the closing delimiter. */
  atTerminator(): boolean {
    const c = this.peek();
    if (isSpace(c)) return true;
    switch (c) {
      case EOF:
      case 0x2e: // .
      case 0x2c: // ,
      case 0x7c: // |
      case 0x3a: // :
      case 0x29: // )
      case 0x28: // (
        return true;
    }
    return this.input.startsWith(RIGHT_DELIM, this.pos);
  }

  scanNumber(): boolean {
    this.accept('+-');
    let digits = '0123456789_';
    if (this.accept('0')) {
      if (this.accept('xX')) digits = '0123456789abcdefABCDEF_';
      else if (this.accept('oO')) digits = '01234567_';
      else if (this.accept('bB')) digits = '01_';
    }
    this.acceptRun(digits);
    if (this.accept('.')) this.acceptRun(digits);
    if (digits.length === 10 + 1 && this.accept('eE')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    if (digits.length === 16 + 6 + 1 && this.accept('pP')) {
      this.accept('+-');
      this.acceptRun('0123456789_');
    }
    this.accept('i');
    if (isAlphaNumeric(this.peek())) {
      this.next();
      return false;
    }
    return true;
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function lexText(l: Lexer): StateFn {
  const x = l.input.indexOf(LEFT_DELIM, l.pos);
  if (x >= 0) {
    if (x > l.pos) {
      l.pos = x;
      let trimLength = 0;
      const delimEnd = l.pos + LEFT_DELIM.length;
      if (hasLeftTrimMarker(l.input, delimEnd)) trimLength = trimRightSpaceLength(l.input, l.start, l.pos);
      l.pos -= trimLength;
      l.line += countNewlines(l.input, l.start, l.pos);
      const item = l.thisItem(ItemType.Text);
      l.pos += trimLength;
      l.ignore();
      if (item.val.length > 0) return l.emitItem(item);
    }
    return lexLeftDelim;
  }
  l.pos = l.input.length;
  if (l.pos > l.start) {
    l.line += countNewlines(l.input, l.start, l.pos);
    return l.emit(ItemType.Text);
  }
  return l.emit(ItemType.EOF);
}

function lexLeftDelim(l: Lexer): StateFn {
  l.pos += LEFT_DELIM.length;
  const trimSpace = hasLeftTrimMarker(l.input, l.pos);
  const afterMarker = trimSpace ? TRIM_MARKER_LEN : 0;
  if (l.input.startsWith(LEFT_COMMENT, l.pos + afterMarker)) {
    l.pos += afterMarker;
    l.ignore();
    return lexComment;
  }
  const item = l.thisItem(ItemType.LeftDelim);
  l.insideAction = true;
  l.pos += afterMarker;
  l.ignore();
  l.parenDepth = 0;
  return l.emitItem(item);
}

function lexComment(l: Lexer): StateFn {
  l.pos += LEFT_COMMENT.length;
  const x = l.input.indexOf(RIGHT_COMMENT, l.pos);
  if (x < 0) return l.errorf('unclosed comment');
  l.pos = x + RIGHT_COMMENT.length;
  const { delim, trimSpaces } = l.atRightDelim();
  if (!delim) return l.errorf('comment ends before closing delimiter');
  l.line += countNewlines(l.input, l.start, l.pos);
  const item = l.thisItem(ItemType.Comment);
  if (trimSpaces) l.pos += TRIM_MARKER_LEN;
  l.pos += RIGHT_DELIM.length;
  if (trimSpaces) l.pos += trimLeftSpaceLength(l.input, l.pos);
  l.ignore();
  if (l.options.emitComment) return l.emitItem(item);
  return lexText;
}

function lexRightDelim(l: Lexer): StateFn {
  const { trimSpaces } = l.atRightDelim();
  if (trimSpaces) {
    l.pos += TRIM_MARKER_LEN;
    l.ignore();
  }
  l.pos += RIGHT_DELIM.length;
  const item = l.thisItem(ItemType.RightDelim);
  if (trimSpaces) {
    l.pos += trimLeftSpaceLength(l.input, l.pos);
    l.ignore();
  }
  l.insideAction = false;
  return l.emitItem(item);
}

function lexInsideAction(l: Lexer): StateFn {
  const { delim } = l.atRightDelim();
  if (delim) {
    if (l.parenDepth === 0) return lexRightDelim;
    return l.errorf('unclosed left paren');
  }
  const c = l.next();
  if (c === EOF) return l.errorf('unclosed action');
  if (isSpace(c)) {
    l.backup(); // The space may start " -}}".
    return lexSpace;
  }
  switch (c) {
    case 0x3d: // =
      return l.emit(ItemType.Assign);
    case 0x3a: // :
      if (l.next() !== 0x3d) return l.errorf('expected :=');
      return l.emit(ItemType.Declare);
    case 0x7c: // |
      return l.emit(ItemType.Pipe);
    case 0x22: // "
      return lexQuote;
    case 0x60: // `
      return lexRawQuote;
    case 0x24: // $
      return lexVariable;
    case 0x27: // '
      return lexChar;
    case 0x28: // (
      l.parenDepth++;
      return l.emit(ItemType.LeftParen);
    case 0x29: // )
      l.parenDepth--;
      if (l.parenDepth < 0) return l.errorf('unexpected right paren');
      return l.emit(ItemType.RightParen);
  }
  if (c === 0x2e) {
    // ".field" versus ".5": look ahead without disturbing backup().
    if (l.pos < l.input.length) {
      const r = l.input.charCodeAt(l.pos);
      if (r < 0x30 || r > 0x39) return lexField;
    }
    l.backup();
    return lexNumber;
  }
  if (c === 0x2b || c === 0x2d || (c >= 0x30 && c <= 0x39)) {
    l.backup();
    return lexNumber;
  }
  if (isAlphaNumeric(c)) {
    l.backup();
    return lexIdentifier;
  }
  if (c <= 0x7f && c >= 0x20 && c !== 0x7f) return l.emit(ItemType.Char);
  return l.errorf(`unrecognized character in action: ${formatRuneU(c)}`);
}

function lexSpace(l: Lexer): StateFn {
  let numSpaces = 0;
  while (isSpace(l.peek())) {
    l.next();
    numSpaces++;
  }
  // A trim-marked closing delimiter starts with a space, which must stay with the delimiter.
  if (hasRightTrimMarker(l.input, l.pos - 1) && l.input.startsWith(RIGHT_DELIM, l.pos - 1 + TRIM_MARKER_LEN)) {
    l.backup();
    if (numSpaces === 1) return lexRightDelim;
  }
  return l.emit(ItemType.Space);
}

function lexIdentifier(l: Lexer): StateFn {
  for (;;) {
    const c = l.next();
    if (isAlphaNumeric(c)) continue;
    l.backup();
    const word = l.input.slice(l.start, l.pos);
    if (!l.atTerminator()) return l.errorf(`bad character ${formatRuneU(c)}`);
    const keyword = KEYWORDS.get(word);
    if (keyword !== undefined && keyword > ItemType.Keyword) {
      if ((keyword === ItemType.Break && !l.options.breakOK) || (keyword === ItemType.Continue && !l.options.continueOK)) {
        return l.emit(ItemType.Identifier);
      }
      return l.emit(keyword);
    }
    if (word.startsWith('.')) return l.emit(ItemType.Field);
    if (word === 'true' || word === 'false') return l.emit(ItemType.Bool);
    return l.emit(ItemType.Identifier);
  }
}

function lexField(l: Lexer): StateFn {
  return lexFieldOrVariable(l, ItemType.Field);
}

function lexVariable(l: Lexer): StateFn {
  if (l.atTerminator()) return l.emit(ItemType.Variable);
  return lexFieldOrVariable(l, ItemType.Variable);
}

function lexFieldOrVariable(l: Lexer, typ: ItemType): StateFn {
  if (l.atTerminator()) return l.emit(typ === ItemType.Variable ? ItemType.Variable : ItemType.Dot);
  let c: number;
  for (;;) {
    c = l.next();
    if (!isAlphaNumeric(c)) {
      l.backup();
      break;
    }
  }
  if (!l.atTerminator()) return l.errorf(`bad character ${formatRuneU(c)}`);
  return l.emit(typ);
}

function lexChar(l: Lexer): StateFn {
  for (;;) {
    let c = l.next();
    if (c === 0x5c) {
      c = l.next();
      if (c !== EOF && c !== 0x0a) continue;
      return l.errorf('unterminated character constant');
    }
    if (c === EOF || c === 0x0a) return l.errorf('unterminated character constant');
    if (c === 0x27) break;
  }
  return l.emit(ItemType.CharConstant);
}

function lexNumber(l: Lexer): StateFn {
  if (!l.scanNumber()) return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
  const sign = l.peek();
  if (sign === 0x2b || sign === 0x2d) {
    // Complex: 1+2i. No spaces, must end in 'i'.
    if (!l.scanNumber() || l.input.charCodeAt(l.pos - 1) !== 0x69) {
      return l.errorf(`bad number syntax: ${goQuote(l.input.slice(l.start, l.pos))}`);
    }
    return l.emit(ItemType.Complex);
  }
  return l.emit(ItemType.Number);
}

function lexQuote(l: Lexer): StateFn {
  for (;;) {
    let c = l.next();
    if (c === 0x5c) {
      c = l.next();
      if (c !== EOF && c !== 0x0a) continue;
      return l.errorf('unterminated quoted string');
    }
    if (c === EOF || c === 0x0a) return l.errorf('unterminated quoted string');
    if (c === 0x22) break;
  }
  return l.emit(ItemType.String);
}

function lexRawQuote(l: Lexer): StateFn {
  for (;;) {
    const c = l.next();
    if (c === EOF) return l.errorf('unterminated raw quoted string');
    if (c === 0x60) break;
  }
  return l.emit(ItemType.RawString);
}

/** Go's %#U: "U+0041 'A'", without the quoted rune when it is not printable. */
function formatRuneU(c: number): string {
  const hex = c.toString(16).toUpperCase().padStart(4, '0');
  return isPrint(c) ? `U+${hex} '${String.fromCodePoint(c)}'` : `U+${hex}`;
}
