/*
 * Go's fmt (Sprint, Sprintln, Sprintf and the %v rendering used to print template values), ported
 * from Go's src/fmt/print.go and format.go for the value model in values.ts.
 *
 * Copyright 2009 The Go Authors. All rights reserved.
 * Use of this source code is governed by a BSD-style license:
 * https://go.dev/LICENSE (BSD-3-Clause). Modifications: TypeScript port for kwokts.
 */
import { formatFloat } from './go-float.js';
import { canBackquote, goQuote, goQuoteRune, goQuoteToASCII, isPrint } from './quote.js';
import {
  GoComplex,
  GoFloat,
  JsonNumber,
  isGoObject,
  isNilSlice,
  isPlainObject,
  sortedKeys,
  typeName,
} from './values.js';

const LDIGITS = '0123456789abcdefx';
const UDIGITS = '0123456789ABCDEFX';
const MAX_RUNE = 0x10ffff;
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

function runeCount(s: string): number {
  if (ASCII.test(s)) return s.length;
  let n = 0;
  for (const _ of s) n++;
  return n;
}

class Printer {
  buf = '';
  // fmt flags
  plus = false;
  minus = false;
  sharp = false;
  space = false;
  zero = false;
  plusV = false;
  sharpV = false;
  wid = 0;
  widPresent = false;
  prec = 0;
  precPresent = false;
  private erroring = false;

  clearFlags(): void {
    this.plus = this.minus = this.sharp = this.space = this.zero = false;
    this.plusV = this.sharpV = false;
    this.wid = this.prec = 0;
    this.widPresent = this.precPresent = false;
  }

  private writePadding(n: number): void {
    if (n <= 0) return;
    this.buf += (this.zero && !this.minus ? '0' : ' ').repeat(n);
  }

  private padString(s: string): void {
    if (!this.widPresent || this.wid === 0) {
      this.buf += s;
      return;
    }
    const width = this.wid - runeCount(s);
    if (!this.minus) {
      this.writePadding(width);
      this.buf += s;
    } else {
      this.buf += s;
      this.writePadding(width);
    }
  }

  private truncateString(s: string): string {
    if (!this.precPresent) return s;
    let n = this.prec;
    let i = 0;
    for (const ch of s) {
      n--;
      if (n < 0) return s.slice(0, i);
      i += ch.length;
    }
    return s;
  }

  private fmtS(s: string): void {
    this.padString(this.truncateString(s));
  }

  private fmtSx(s: string, digits: string): void {
    const bytes = Buffer.from(s, 'utf8');
    let length = bytes.length;
    if (this.precPresent && this.prec < length) length = this.prec;
    let width = 2 * length;
    if (width > 0) {
      if (this.space) {
        if (this.sharp) width *= 2;
        width += length - 1;
      } else if (this.sharp) {
        width += 2;
      }
    } else {
      if (this.widPresent) this.writePadding(this.wid);
      return;
    }
    if (this.widPresent && this.wid > width && !this.minus) this.writePadding(this.wid - width);
    let out = '';
    if (this.sharp) out += '0' + (digits[16] as string);
    for (let i = 0; i < length; i++) {
      if (this.space && i > 0) {
        out += ' ';
        if (this.sharp) out += '0' + (digits[16] as string);
      }
      const c = bytes[i] as number;
      out += (digits[c >> 4] as string) + (digits[c & 0xf] as string);
    }
    this.buf += out;
    if (this.widPresent && this.wid > width && this.minus) this.writePadding(this.wid - width);
  }

  private fmtQ(s: string): void {
    s = this.truncateString(s);
    if (this.sharp && canBackquote(s)) {
      this.padString('`' + s + '`');
      return;
    }
    this.padString(this.plus ? goQuoteToASCII(s) : goQuote(s));
  }

  private fmtC(c: bigint): void {
    const r = c > BigInt(MAX_RUNE) || c < 0n ? 0xfffd : Number(c);
    this.padString(String.fromCodePoint(r >= 0xd800 && r <= 0xdfff ? 0xfffd : r));
  }

  private fmtQc(c: bigint): void {
    const r = c > BigInt(MAX_RUNE) || c < 0n ? 0xfffd : Number(c);
    this.padString(goQuoteRune(r, this.plus));
  }

  private fmtUnicode(u: bigint): void {
    if (u < 0n) u += 1n << 64n;
    let prec = 4;
    if (this.precPresent && this.prec > 4) prec = this.prec;
    let s = 'U+' + u.toString(16).toUpperCase().padStart(prec, '0');
    if (this.sharp && u <= BigInt(MAX_RUNE) && isPrint(Number(u))) s += ` '${String.fromCodePoint(Number(u))}'`;
    const oldZero = this.zero;
    this.zero = false;
    this.padString(s);
    this.zero = oldZero;
  }

  private fmtIntegerBase(v: bigint, base: number, isSigned: boolean, verb: string, digits: string): void {
    const negative = isSigned && v < 0n;
    const u = negative ? -v : v < 0n ? v + (1n << 64n) : v;
    let prec = 0;
    if (this.precPresent) {
      prec = this.prec;
      if (prec === 0 && u === 0n) {
        const oldZero = this.zero;
        this.zero = false;
        this.writePadding(this.wid);
        this.zero = oldZero;
        return;
      }
    } else if (this.zero && !this.minus && this.widPresent) {
      prec = this.wid;
      if (negative || this.plus || this.space) prec--;
    }
    let s = base === 16 ? u.toString(16) : u.toString(base);
    if (base === 16 && digits === UDIGITS) s = s.toUpperCase();
    if (s.length < prec) s = '0'.repeat(prec - s.length) + s;
    if (this.sharp) {
      if (base === 2) s = '0b' + s;
      else if (base === 8 && s[0] !== '0') s = '0' + s;
      else if (base === 16) s = '0' + (digits[16] as string) + s;
    }
    if (verb === 'O') s = '0o' + s;
    if (negative) s = '-' + s;
    else if (this.plus) s = '+' + s;
    else if (this.space) s = ' ' + s;
    const oldZero = this.zero;
    this.zero = false;
    this.padString(s);
    this.zero = oldZero;
  }

  private fmtInteger(v: bigint, isSigned: boolean, verb: string, arg: unknown): void {
    switch (verb) {
      case 'v':
        if (this.sharpV && !isSigned) {
          const sharp = this.sharp;
          this.sharp = true;
          this.fmtIntegerBase(v, 16, false, 'v', LDIGITS);
          this.sharp = sharp;
        } else {
          this.fmtIntegerBase(v, 10, isSigned, verb, LDIGITS);
        }
        return;
      case 'd':
        return this.fmtIntegerBase(v, 10, isSigned, verb, LDIGITS);
      case 'b':
        return this.fmtIntegerBase(v, 2, isSigned, verb, LDIGITS);
      case 'o':
      case 'O':
        return this.fmtIntegerBase(v, 8, isSigned, verb, LDIGITS);
      case 'x':
        return this.fmtIntegerBase(v, 16, isSigned, verb, LDIGITS);
      case 'X':
        return this.fmtIntegerBase(v, 16, isSigned, verb, UDIGITS);
      case 'c':
        return this.fmtC(v);
      case 'q':
        return this.fmtQc(v);
      case 'U':
        return this.fmtUnicode(v);
      default:
        return this.badVerb(verb, arg);
    }
  }

  private fmtFloatRaw(v: number, verb: string, prec: number): void {
    if (this.precPresent) prec = this.prec;
    let num = formatFloat(v, verb, prec);
    if (num[0] !== '-' && num[0] !== '+') num = '+' + num;
    if (this.space && num[0] === '+' && !this.plus) num = ' ' + num.slice(1);
    if (num[1] === 'I' || num[1] === 'N') {
      const oldZero = this.zero;
      this.zero = false;
      if (num[1] === 'N' && !this.space && !this.plus) num = num.slice(1);
      this.padString(num);
      this.zero = oldZero;
      return;
    }
    if (this.sharp && verb !== 'b') {
      let digits = 0;
      if (verb === 'v' || verb === 'g' || verb === 'G' || verb === 'x') {
        digits = prec;
        if (digits === -1) digits = 6;
      }
      let tail = '';
      let hasDecimalPoint = false;
      let sawNonzeroDigit = false;
      for (let i = 1; i < num.length; i++) {
        const c = num[i] as string;
        if (c === '.') {
          hasDecimalPoint = true;
        } else if (c === 'p' || c === 'P' || ((c === 'e' || c === 'E') && verb !== 'x' && verb !== 'X')) {
          tail = num.slice(i);
          num = num.slice(0, i);
          break;
        } else {
          if (c !== '0') sawNonzeroDigit = true;
          if (sawNonzeroDigit) digits--;
        }
      }
      if (!hasDecimalPoint) {
        if (num.length === 2 && num[1] === '0') digits--;
        num += '.';
      }
      while (digits > 0) {
        num += '0';
        digits--;
      }
      num += tail;
    }
    if (this.plus || num[0] !== '+') {
      if (this.zero && !this.minus && this.widPresent && this.wid > num.length) {
        this.buf += num[0] as string;
        this.writePadding(this.wid - num.length);
        this.buf += num.slice(1);
        return;
      }
      this.padString(num);
      return;
    }
    this.padString(num.slice(1));
  }

  private fmtFloat(v: number, verb: string, arg: unknown): void {
    switch (verb) {
      case 'v':
        return this.fmtFloatRaw(v, 'g', -1);
      case 'b':
      case 'g':
      case 'G':
      case 'x':
      case 'X':
        return this.fmtFloatRaw(v, verb, -1);
      case 'f':
      case 'e':
      case 'E':
        return this.fmtFloatRaw(v, verb, 6);
      case 'F':
        return this.fmtFloatRaw(v, 'f', 6);
      default:
        return this.badVerb(verb, arg);
    }
  }

  private fmtComplex(v: GoComplex, verb: string): void {
    if (!'vbgGxXfFeE'.includes(verb)) return this.badVerb(verb, v);
    const oldPlus = this.plus;
    this.buf += '(';
    this.fmtFloat(v.re, verb, v);
    this.plus = true;
    this.fmtFloat(v.im, verb, v);
    this.buf += 'i)';
    this.plus = oldPlus;
  }

  private fmtString(s: string, verb: string, arg: unknown): void {
    switch (verb) {
      case 'v':
        if (this.sharpV) this.fmtQ(s);
        else this.fmtS(s);
        return;
      case 's':
        return this.fmtS(s);
      case 'x':
        return this.fmtSx(s, LDIGITS);
      case 'X':
        return this.fmtSx(s, UDIGITS);
      case 'q':
        return this.fmtQ(s);
      default:
        return this.badVerb(verb, arg);
    }
  }

  private fmtBool(v: boolean, verb: string): void {
    if (verb === 't' || verb === 'v') this.padString(v ? 'true' : 'false');
    else this.badVerb(verb, v);
  }

  private badVerb(verb: string, arg: unknown): void {
    this.erroring = true;
    this.buf += '%!' + verb + '(';
    if (arg === undefined || arg === null) {
      this.buf += '<nil>';
    } else {
      this.buf += typeName(arg) + '=';
      this.printArg(arg, 'v', 0);
    }
    this.buf += ')';
    this.erroring = false;
  }

  /** Prints one operand; depth > 0 means an element of a container (an interface{} slot). */
  printArg(arg: unknown, verb: string, depth: number): void {
    if (arg === undefined || arg === null) {
      if (depth > 0) {
        if (this.sharpV) this.buf += 'interface {}(nil)';
        else this.padString('<nil>');
      } else if (verb === 'T' || verb === 'v') {
        this.padString('<nil>');
      } else {
        this.badVerb(verb, arg);
      }
      return;
    }
    if (depth === 0 && verb === 'T') {
      this.fmtS(typeName(arg));
      return;
    }
    switch (typeof arg) {
      case 'boolean':
        return this.fmtBool(arg, verb);
      case 'string':
        return this.fmtString(arg, verb, arg);
      case 'number':
        if (Number.isInteger(arg) && !Object.is(arg, -0)) return this.fmtInteger(BigInt(arg), true, verb, arg);
        return this.fmtFloat(arg, verb, arg);
      case 'bigint':
        return this.fmtInteger(arg, true, verb, arg);
      case 'function':
        return this.fmtPointer(verb, arg);
    }
    if (arg instanceof JsonNumber) return this.fmtString(arg.text, verb, arg);
    if (arg instanceof GoFloat) return this.fmtFloat(arg.value, verb, arg);
    if (arg instanceof GoComplex) return this.fmtComplex(arg, verb);
    if (Array.isArray(arg)) return this.printSlice(arg, verb, depth);
    if (isPlainObject(arg)) return this.printMap(arg, verb, depth);
    if (isGoObject(arg) && typeof arg.String === 'function') {
      if (!this.erroring && !this.sharpV && 'vsxXq'.includes(verb)) return this.fmtString(arg.String(), verb, arg);
      if (this.sharpV) {
        this.buf += arg.String();
        return;
      }
      return this.badVerb(verb, arg);
    }
    this.fmtString(String(arg), verb, arg);
  }

  private fmtPointer(verb: string, arg: unknown): void {
    if (verb === 'v' && this.sharpV) {
      this.buf += `(${typeName(arg)})(0xc000010000)`;
      return;
    }
    if (verb === 'v' || verb === 'p') {
      this.padString('0xc000010000');
      return;
    }
    this.badVerb(verb, arg);
  }

  private printSlice(v: readonly unknown[], verb: string, depth: number): void {
    if (this.sharpV) {
      this.buf += typeName(v);
      if (isNilSlice(v)) {
        this.buf += '(nil)';
        return;
      }
      this.buf += '{';
      for (let i = 0; i < v.length; i++) {
        if (i > 0) this.buf += ', ';
        this.printArg(v[i], verb, depth + 1);
      }
      this.buf += '}';
      return;
    }
    this.buf += '[';
    for (let i = 0; i < v.length; i++) {
      if (i > 0) this.buf += ' ';
      this.printArg(v[i], verb, depth + 1);
    }
    this.buf += ']';
  }

  private printMap(m: Record<string, unknown>, verb: string, depth: number): void {
    const keys = sortedKeys(m);
    if (this.sharpV) {
      this.buf += typeName(m) + '{';
      keys.forEach((k, i) => {
        if (i > 0) this.buf += ', ';
        this.printArg(k, verb, depth + 1);
        this.buf += ':';
        this.printArg(m[k], verb, depth + 1);
      });
      this.buf += '}';
      return;
    }
    this.buf += 'map[';
    keys.forEach((k, i) => {
      if (i > 0) this.buf += ' ';
      this.printArg(k, verb, depth + 1);
      this.buf += ':';
      this.printArg(m[k], verb, depth + 1);
    });
    this.buf += ']';
  }

  doPrintf(format: string, a: readonly unknown[]): void {
    const end = format.length;
    let argNum = 0;
    let afterIndex = false;
    let reordered = false;
    let goodArgNum = true;

    const parsenum = (start: number): [number, boolean, number] => {
      let num = 0;
      let isnum = false;
      let i = start;
      for (; i < end && format.charCodeAt(i) >= 0x30 && format.charCodeAt(i) <= 0x39; i++) {
        if (num > 1e6 || num < -1e6) return [0, false, end];
        num = num * 10 + (format.charCodeAt(i) - 0x30);
        isnum = true;
      }
      return [num, isnum, i];
    };
    const argNumber = (i: number): [number, number, boolean] => {
      if (format.length <= i || format[i] !== '[') return [argNum, i, false];
      reordered = true;
      // parseArgNumber
      let index = 0;
      let wid = 1;
      let ok = false;
      if (format.length - i >= 3) {
        for (let j = i + 1; j < format.length; j++) {
          if (format[j] === ']') {
            const [width, isnum, newi] = parsenum(i + 1);
            if (!isnum || newi !== j) {
              wid = j - i + 1;
            } else {
              index = width - 1;
              wid = j - i + 1;
              ok = true;
            }
            break;
          }
        }
      }
      if (ok && index >= 0 && index < a.length) return [index, i + wid, true];
      goodArgNum = false;
      return [argNum, i + wid, ok];
    };
    const intFromArg = (): [number, boolean] => {
      let num = 0;
      let isInt = false;
      if (argNum < a.length) {
        const v = a[argNum];
        if (typeof v === 'number' && Number.isInteger(v)) {
          num = v;
          isInt = true;
        } else if (typeof v === 'bigint') {
          num = Number(v);
          isInt = true;
        }
        argNum++;
        if (num > 1e6 || num < -1e6) {
          num = 0;
          isInt = false;
        }
      }
      return [num, isInt];
    };

    let i = 0;
    formatLoop: while (i < end) {
      goodArgNum = true;
      const lasti = i;
      while (i < end && format[i] !== '%') i++;
      if (i > lasti) this.buf += format.slice(lasti, i);
      if (i >= end) break;
      i++;
      this.clearFlags();
      simpleFormat: for (; i < end; i++) {
        const c = format[i] as string;
        switch (c) {
          case '#':
            this.sharp = true;
            break;
          case '0':
            this.zero = true;
            break;
          case '+':
            this.plus = true;
            break;
          case '-':
            this.minus = true;
            break;
          case ' ':
            this.space = true;
            break;
          default:
            if (c >= 'a' && c <= 'z' && argNum < a.length) {
              if (c === 'v' || c === 'w') {
                this.sharpV = this.sharp;
                this.sharp = false;
                this.plusV = this.plus;
                this.plus = false;
              }
              this.printArg(a[argNum], c, 0);
              argNum++;
              i++;
              continue formatLoop;
            }
            break simpleFormat;
        }
      }

      [argNum, i, afterIndex] = argNumber(i);

      if (i < end && format[i] === '*') {
        i++;
        [this.wid, this.widPresent] = intFromArg();
        if (!this.widPresent) this.buf += '%!(BADWIDTH)';
        if (this.wid < 0) {
          this.wid = -this.wid;
          this.minus = true;
          this.zero = false;
        }
        afterIndex = false;
      } else {
        [this.wid, this.widPresent, i] = parsenum(i);
        if (afterIndex && this.widPresent) goodArgNum = false;
      }

      if (i + 1 < end && format[i] === '.') {
        i++;
        if (afterIndex) goodArgNum = false;
        [argNum, i, afterIndex] = argNumber(i);
        if (i < end && format[i] === '*') {
          i++;
          [this.prec, this.precPresent] = intFromArg();
          if (this.prec < 0) {
            this.prec = 0;
            this.precPresent = false;
          }
          if (!this.precPresent) this.buf += '%!(BADPREC)';
          afterIndex = false;
        } else {
          [this.prec, this.precPresent, i] = parsenum(i);
          if (!this.precPresent) {
            this.prec = 0;
            this.precPresent = true;
          }
        }
      }

      if (!afterIndex) [argNum, i, afterIndex] = argNumber(i);

      if (i >= end) {
        this.buf += '%!(NOVERB)';
        break;
      }

      const verb = String.fromCodePoint(format.codePointAt(i) as number);
      i += verb.length;

      if (verb === '%') {
        this.buf += '%';
      } else if (!goodArgNum) {
        this.buf += `%!${verb}(BADINDEX)`;
      } else if (argNum >= a.length) {
        this.buf += `%!${verb}(MISSING)`;
      } else {
        if (verb === 'v' || verb === 'w') {
          this.sharpV = this.sharp;
          this.sharp = false;
          this.plusV = this.plus;
          this.plus = false;
        }
        this.printArg(a[argNum], verb, 0);
        argNum++;
      }
    }

    if (!reordered && argNum < a.length) {
      this.clearFlags();
      this.buf += '%!(EXTRA ';
      for (let k = argNum; k < a.length; k++) {
        if (k > argNum) this.buf += ', ';
        const arg = a[k];
        if (arg === undefined || arg === null) {
          this.buf += '<nil>';
        } else {
          this.buf += typeName(arg) + '=';
          this.printArg(arg, 'v', 0);
        }
      }
      this.buf += ')';
    }
  }
}

function isStringOperand(v: unknown): boolean {
  return typeof v === 'string' || v instanceof JsonNumber;
}

/** fmt.Sprint: spaces between operands when neither side is a string. */
export function sprint(args: readonly unknown[]): string {
  if (args.length === 1) return formatValue(args[0]);
  const p = new Printer();
  let prevString = false;
  args.forEach((arg, n) => {
    const isString = isStringOperand(arg);
    if (n > 0 && !isString && !prevString) p.buf += ' ';
    p.printArg(arg, 'v', 0);
    prevString = isString;
  });
  return p.buf;
}

/** fmt.Sprintln. */
export function sprintln(args: readonly unknown[]): string {
  const p = new Printer();
  args.forEach((arg, n) => {
    if (n > 0) p.buf += ' ';
    p.printArg(arg, 'v', 0);
  });
  return p.buf + '\n';
}

/** fmt.Sprintf. */
export function sprintf(format: string, args: readonly unknown[]): string {
  const p = new Printer();
  p.doPrintf(format, args);
  return p.buf;
}

/** fmt.Sprint of a single value (%v), with fast paths for the common scalar cases. */
export function formatValue(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (Number.isSafeInteger(v) && !Object.is(v, -0)) return String(v);
      break;
    case 'bigint':
      return v.toString();
    case 'object':
      if (v instanceof JsonNumber) return v.text;
      break;
  }
  const p = new Printer();
  p.printArg(v, 'v', 0);
  return p.buf;
}

/** %#v of a value (used by kwok's stage-test stubs and for Go-syntax messages). */
export function goSyntax(v: unknown): string {
  return sprintf('%#v', [v]);
}

