/**
 * Lexer cases ported from Go's src/text/template/parse/lex_test.go (same inputs, same expected
 * token streams), plus position and line tracking.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ItemType, Lexer } from '../../../../src/gocompat/gotpl/lex.js';

type Tok = [keyof typeof ItemType, string];

function collect(input: string): Tok[] {
  const l = new Lexer('lex', input);
  l.options = { emitComment: true, breakOK: true, continueOK: true };
  const out: Tok[] = [];
  for (;;) {
    const item = l.nextItem();
    out.push([ItemType[item.typ] as keyof typeof ItemType, item.val]);
    if (item.typ === ItemType.EOF || item.typ === ItemType.Error) return out;
  }
}

const L: Tok = ['LeftDelim', '{{'];
const R: Tok = ['RightDelim', '}}'];
const S: Tok = ['Space', ' '];
const EOF: Tok = ['EOF', ''];
const raw = '`abc\\n\\t\\" `';
const rawNL = '`now is{{\n}}the time`';

const cases: [string, string, Tok[]][] = [
  ['empty', '', [EOF]],
  ['spaces', ' \t\n', [['Text', ' \t\n'], EOF]],
  ['text', 'now is the time', [['Text', 'now is the time'], EOF]],
  ['text with comment', 'hello-{{/* this is a comment */}}-world', [['Text', 'hello-'], ['Comment', '/* this is a comment */'], ['Text', '-world'], EOF]],
  ['punctuation', '{{,@% }}', [L, ['Char', ','], ['Char', '@'], ['Char', '%'], S, R, EOF]],
  ['parens', '{{((3))}}', [L, ['LeftParen', '('], ['LeftParen', '('], ['Number', '3'], ['RightParen', ')'], ['RightParen', ')'], R, EOF]],
  ['empty action', '{{}}', [L, R, EOF]],
  ['for', '{{for}}', [L, ['Identifier', 'for'], R, EOF]],
  ['block', '{{block "foo" .}}', [L, ['Block', 'block'], S, ['String', '"foo"'], S, ['Dot', '.'], R, EOF]],
  ['quote', '{{"abc \\n\\t\\" "}}', [L, ['String', '"abc \\n\\t\\" "'], R, EOF]],
  ['raw quote', `{{${raw}}}`, [L, ['RawString', raw], R, EOF]],
  ['raw quote with newline', `{{${rawNL}}}`, [L, ['RawString', rawNL], R, EOF]],
  [
    'numbers',
    '{{1 02 0x14 0X14 -7.2i 1e3 1E3 +1.2e-4 4.2i 1+2i 1_2 0x1.e_fp4 0X1.E_FP4}}',
    [
      L,
      ...(['1', '02', '0x14', '0X14', '-7.2i', '1e3', '1E3', '+1.2e-4', '4.2i'].flatMap((n) => [['Number', n], S]) as Tok[]),
      ['Complex', '1+2i'],
      S,
      ['Number', '1_2'],
      S,
      ['Number', '0x1.e_fp4'],
      S,
      ['Number', '0X1.E_FP4'],
      R,
      EOF,
    ],
  ],
  [
    'characters',
    "{{'a' '\\n' '\\'' '\\\\' '\\u00FF' '\\xFF' '本'}}",
    [L, ...(["'a'", "'\\n'", "'\\''", "'\\\\'", "'\\u00FF'", "'\\xFF'"].flatMap((c) => [['CharConstant', c], S]) as Tok[]), ['CharConstant', "'本'"], R, EOF],
  ],
  ['bools', '{{true false}}', [L, ['Bool', 'true'], S, ['Bool', 'false'], R, EOF]],
  ['dot', '{{.}}', [L, ['Dot', '.'], R, EOF]],
  ['nil', '{{nil}}', [L, ['Nil', 'nil'], R, EOF]],
  ['dots', '{{.x . .2 .x.y.z}}', [L, ['Field', '.x'], S, ['Dot', '.'], S, ['Number', '.2'], S, ['Field', '.x'], ['Field', '.y'], ['Field', '.z'], R, EOF]],
  ['keywords', '{{range if else end with}}', [L, ['Range', 'range'], S, ['If', 'if'], S, ['Else', 'else'], S, ['End', 'end'], S, ['With', 'with'], R, EOF]],
  [
    'variables',
    '{{$c := printf $ $hello $23 $ $var.Field .Method}}',
    [
      L,
      ['Variable', '$c'],
      S,
      ['Declare', ':='],
      S,
      ['Identifier', 'printf'],
      S,
      ['Variable', '$'],
      S,
      ['Variable', '$hello'],
      S,
      ['Variable', '$23'],
      S,
      ['Variable', '$'],
      S,
      ['Variable', '$var'],
      ['Field', '.Field'],
      S,
      ['Field', '.Method'],
      R,
      EOF,
    ],
  ],
  ['variable invocation', '{{$x 23}}', [L, ['Variable', '$x'], S, ['Number', '23'], R, EOF]],
  [
    'pipeline',
    'intro {{echo hi 1.2 |noargs|args 1 "hi"}} outro',
    [
      ['Text', 'intro '],
      L,
      ['Identifier', 'echo'],
      S,
      ['Identifier', 'hi'],
      S,
      ['Number', '1.2'],
      S,
      ['Pipe', '|'],
      ['Identifier', 'noargs'],
      ['Pipe', '|'],
      ['Identifier', 'args'],
      S,
      ['Number', '1'],
      S,
      ['String', '"hi"'],
      R,
      ['Text', ' outro'],
      EOF,
    ],
  ],
  ['declaration', '{{$v := 3}}', [L, ['Variable', '$v'], S, ['Declare', ':='], S, ['Number', '3'], R, EOF]],
  ['2 declarations', '{{$v , $w := 3}}', [L, ['Variable', '$v'], S, ['Char', ','], S, ['Variable', '$w'], S, ['Declare', ':='], S, ['Number', '3'], R, EOF]],
  ['field of parenthesized expression', '{{(.X).Y}}', [L, ['LeftParen', '('], ['Field', '.X'], ['RightParen', ')'], ['Field', '.Y'], R, EOF]],
  ['trimming spaces before and after', 'hello- {{- 3 -}} -world', [['Text', 'hello-'], L, ['Number', '3'], R, ['Text', '-world'], EOF]],
  ['trimming spaces before and after comment', 'hello- {{- /* hello */ -}} -world', [['Text', 'hello-'], ['Comment', '/* hello */'], ['Text', '-world'], EOF]],
  ['trim marker needs a space: {{-3}} is a number', '{{-3}}', [L, ['Number', '-3'], R, EOF]],
  // errors
  ['badchar', '#{{\x01}}', [['Text', '#'], L, ['Error', 'unrecognized character in action: U+0001']]],
  ['unclosed action', '{{', [L, ['Error', 'unclosed action']]],
  ['EOF in action', '{{range', [L, ['Range', 'range'], ['Error', 'unclosed action']]],
  ['unclosed quote', '{{"\n"}}', [L, ['Error', 'unterminated quoted string']]],
  ['unclosed raw quote', '{{`xx}}', [L, ['Error', 'unterminated raw quoted string']]],
  ['unclosed char constant', "{{'\n}}", [L, ['Error', 'unterminated character constant']]],
  ['bad number', '{{3k}}', [L, ['Error', 'bad number syntax: "3k"']]],
  ['unclosed paren', '{{(3}}', [L, ['LeftParen', '('], ['Number', '3'], ['Error', 'unclosed left paren']]],
  ['extra right paren', '{{3)}}', [L, ['Number', '3'], ['Error', 'unexpected right paren']]],
  ['long pipeline deadlock', '{{|||||}}', [L, ['Pipe', '|'], ['Pipe', '|'], ['Pipe', '|'], ['Pipe', '|'], ['Pipe', '|'], R, EOF]],
  ['text with bad comment', 'hello-{{/*/}}-world', [['Text', 'hello-'], ['Error', 'unclosed comment']]],
  ['comment close separated from delim', 'hello-{{/* */ }}-world', [['Text', 'hello-'], ['Error', 'comment ends before closing delimiter']]],
  ['unmatched right delimiter', 'hello-{.}}-world', [['Text', 'hello-{.}}-world'], EOF]],
  ['unicode identifiers', '{{.héllo $ü}}', [L, ['Field', '.héllo'], S, ['Variable', '$ü'], R, EOF]],
];

describe('lexer (Go lex_test cases)', () => {
  for (const [name, input, want] of cases) {
    it(name, () => assert.deepEqual(collect(input), want));
  }
});

describe('lexer positions and lines', () => {
  it('reports offsets as Go does', () => {
    const l = new Lexer('pos', '0123{{hello}}xyz');
    const items: [string, number][] = [];
    for (let i = l.nextItem(); ; i = l.nextItem()) {
      items.push([i.val, i.pos]);
      if (i.typ === ItemType.EOF) break;
    }
    assert.deepEqual(items, [
      ['0123', 0],
      ['{{', 4],
      ['hello', 6],
      ['}}', 11],
      ['xyz', 13],
      ['', 16],
    ]);
  });

  it('counts lines across trimmed text, comments and raw strings', () => {
    const l = new Lexer('lines', '{{x -}}\n{{y}}\n{{/*\n*/}}{{`a\nb`}}\n{{z}}');
    l.options = { emitComment: true, breakOK: true, continueOK: true };
    const lines: [string, number][] = [];
    for (let i = l.nextItem(); i.typ !== ItemType.EOF; i = l.nextItem()) {
      if (i.typ === ItemType.Identifier || i.typ === ItemType.RawString || i.typ === ItemType.Comment) lines.push([i.val, i.line]);
    }
    assert.deepEqual(lines, [
      ['x', 1],
      ['y', 2],
      ['/*\n*/', 3],
      ['`a\nb`', 4],
      ['z', 6],
    ]);
  });

  it('treats break/continue as identifiers when functions of those names exist', () => {
    const l = new Lexer('kw', '{{break}}');
    l.options = { emitComment: false, breakOK: false, continueOK: true };
    l.nextItem();
    assert.equal(l.nextItem().typ, ItemType.Identifier);
  });
});
