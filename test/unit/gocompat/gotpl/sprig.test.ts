/**
 * sprig v3.3.0 functions, with expectations from sprig's documentation examples
 * (https://masterminds.github.io/sprig/) and its Go implementation's semantics.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compileTemplate, defaultFuncs } from '../../../../src/gocompat/gotpl/index.js';

const CLOCK = (): Date => new Date('2024-03-05T07:08:09.120Z');
const FUNCS = defaultFuncs({ now: CLOCK, env: { HOME: '/home/kwok', NAME: 'kwok' } });

function render(template: string, data: unknown = {}): string {
  return compileTemplate(template, undefined, { baseFuncs: FUNCS }).execute(data);
}

function table(cases: readonly (readonly [string, string, unknown?])[]): void {
  for (const [template, want, data] of cases) {
    it(template, () => assert.equal(render(template, data), want));
  }
}

describe('sprig: strings', () => {
  table([
    ['{{ trim "   hello    " }}', 'hello'],
    ['{{ trimAll "$" "$5.00" }}', '5.00'],
    ['{{ trimSuffix "-" "hello-" }}|{{ trimPrefix "-" "-hello" }}', 'hello|hello'],
    ['{{ upper "hello" }} {{ lower "HELLO" }} {{ title "hello world" }} {{ untitle "Hello World" }}', 'HELLO hello Hello World hello World'],
    ['{{ repeat 3 "hello" }}', 'hellohellohello'],
    ['{{ substr 0 5 "hello world" }}|{{ substr 6 -1 "hello world" }}|{{ substr -1 5 "hello world" }}', 'hello|world|hello'],
    ['{{ nospace "hello w o r l d" }}', 'helloworld'],
    ['{{ trunc 5 "hello world" }}|{{ trunc -5 "hello world" }}|{{ trunc 50 "hi" }}', 'hello|world|hi'],
    ['{{ abbrev 5 "hello world" }}|{{ abbrevboth 5 10 "1234 5678 9123" }}', 'he...|...5678...'],
    ['{{ initials "First Try" }}', 'FT'],
    ['{{ wrapWith 5 "\\t" "Hello World" }}', 'Hello\tWorld'],
    ['{{ wrap 10 "the quick brown fox jumps" }}', 'the quick\nbrown fox\njumps'],
    ['{{ contains "cat" "catch" }} {{ hasPrefix "cat" "catch" }} {{ hasSuffix "cat" "catch" }}', 'true true false'],
    ['{{ quote "a" 1 .missing }} {{ squote "b" }} {{ cat "hello" "beautiful" .missing "world" }}', '"a" "1" \'b\' hello beautiful world'],
    ['{{ "a\\nb" | indent 2 }}|{{ "a\\nb" | nindent 2 }}', '  a\n  b|\n  a\n  b'],
    ['{{ replace " " "-" "I Am Henry VIII" }}', 'I-Am-Henry-VIII'],
    ['{{ plural "one anchovy" "many anchovies" 1 }}|{{ plural "one anchovy" "many anchovies" 2 }}', 'one anchovy|many anchovies'],
    ['{{ snakecase "FirstName" }} {{ snakecase "HTTPServer" }} {{ camelcase "http_server" }} {{ kebabcase "FirstName" }}', 'first_name http_server HttpServer first-name'],
    ['{{ swapcase "This Is A.Test" }}', 'tHIS iS a.tEST'],
    ['{{ toString 1 }}|{{ toString .n }}|{{ toStrings (list 1 "a" .missing) }}', '1|2.5|[1 a]', { n: 2.5 }],
    ['{{ join "." (list "a" "b" "c") }}|{{ join "-" (list 1 2) }}', 'a.b.c|1-2'],
    ['{{ splitList "$" "foo$bar$baz" }}|{{ split "$" "foo$bar$baz" }}|{{ splitn "$" 2 "foo$bar$baz" }}', '[foo bar baz]|map[_0:foo _1:bar _2:baz]|map[_0:foo _1:bar$baz]'],
    ['{{ (split "$" "foo$bar")._1 }}', 'bar'],
    ['{{ sortAlpha (list "c" "a" "B") }}', '[B a c]'],
    ['{{ sha1sum "Hello world!" }}', 'd3486ae9136e7856bc42212385ea797094475802'],
    ['{{ sha256sum "Hello world!" }}', 'c0535e4be2b79ffd93291305436bf889314e4a3faec05ecffcbb7df31ad9e51a'],
    ['{{ adler32sum "Hello world!" }}', '487130206'],
    ['{{ b64enc "hello" }} {{ b64dec "aGVsbG8=" }} {{ b32enc "hello" }} {{ b32dec "NBSWY3DP" }}', 'aGVsbG8= hello NBSWY3DP hello'],
    ['{{ b64dec "not*base64" }}', 'illegal base64 data at input byte 3'],
  ]);

  it('random strings have the requested length and alphabet', () => {
    assert.match(render('{{ randAlphaNum 12 }}'), /^[A-Za-z0-9]{12}$/);
    assert.match(render('{{ randAlpha 5 }}'), /^[A-Za-z]{5}$/);
    assert.match(render('{{ randNumeric 7 }}'), /^[0-9]{7}$/);
    assert.match(render('{{ randAscii 9 }}'), /^[\x20-\x7e]{9}$/);
    assert.deepEqual([...render('{{ shuffle "hello" }}')].sort(), [...'hello'].sort());
  });

  it('checks argument types as Go does (a data number is not a string)', () => {
    assert.throws(() => render('{{ upper .n }}', { n: 1 }), /wrong type for value; expected string; got json.Number/);
    assert.throws(() => render('{{ repeat "3" "x" }}'), /expected integer; found "3"/);
  });
});

describe('sprig: math', () => {
  table([
    ['{{ add 1 2 3 }} {{ add1 1 }} {{ sub 3 2 }} {{ div 10 3 }} {{ mod 10 3 }} {{ mul 2 3 4 }}', '6 2 1 3 1 24'],
    ['{{ max 1 5 3 }} {{ biggest 1 9 }} {{ min 4 2 8 }}', '5 9 2'],
    ['{{ add .a .b }} {{ add "10" 1 }} {{ add "0x10" 1 }} {{ add "1.5" 1 }}', '5 11 17 1', { a: 2, b: 3 }],
    ['{{ addf 1.5 2 2 }} {{ add1f 1.5 }} {{ subf 7.5 2 3 }} {{ divf 10 4 }} {{ mulf 1.5 2 2 }}', '5.5 2.5 2.5 2.5 6'],
    ['{{ addf 0.1 0.2 }} {{ divf 1 3 }} {{ mulf 1000 1000 }}', '0.3 0.3333333333333333 1e+06'],
    ['{{ maxf 1 2.5 3 }} {{ minf 1.5 2 3 }}', '3 1.5'],
    ['{{ floor 123.9999 }} {{ ceil 123.001 }} {{ round 123.555555 3 }} {{ round 123.5555 3 0.6 }}', '123 124 123.556 123.555'],
    ['{{ atoi "12" }} {{ atoi "x" }} {{ int "12" }} {{ int64 .n }} {{ float64 "1.5" }} {{ int 3.9 }}', '12 0 12 7 1.5 3', { n: 7 }],
    ['{{ until 5 }} {{ untilStep 3 6 2 }} {{ until -3 }}', '[0 1 2 3 4] [3 5] [0 -1 -2]'],
    ['{{ seq 5 }}|{{ seq -3 }}|{{ seq 0 2 }}|{{ seq 2 -2 }}|{{ seq 0 2 10 }}|{{ seq 0 -2 -5 }}', '1 2 3 4 5|1 0 -1 -2 -3|0 1 2|2 1 0 -1 -2|0 2 4 6 8 10|0 -2 -4'],
    ['{{ typeOf (add 1 2) }} {{ typeOf (addf 1 2) }} {{ typeOf (atoi "1") }} {{ typeOf (until 2) }}', 'int64 float64 int []int'],
  ]);

  it('division by zero fails the render', () => {
    assert.throws(() => render('{{ div 1 0 }}'), /error calling div: runtime error: integer divide by zero/);
  });

  it('randInt stays within [min, max)', () => {
    for (let i = 0; i < 20; i++) {
      const n = Number(render('{{ randInt 3 6 }}'));
      assert.ok(n >= 3 && n < 6);
    }
  });
});

describe('sprig: defaults and flow control', () => {
  table([
    ['{{ default "foo" .missing }}|{{ default "foo" "" }}|{{ default "foo" "bar" }}|{{ .missing | default "x" }}', 'foo|foo|bar|x'],
    ['{{ default 5 .n }}', '0', { n: 0 }],
    ['{{ empty "" }} {{ empty 0 }} {{ empty (list) }} {{ empty (dict) }} {{ empty false }} {{ empty .missing }} {{ empty "x" }} {{ empty .n }}', 'true true true true true true false false', { n: 0 }],
    ['{{ coalesce 0 "" "x" 1 }} {{ coalesce .a .b "c" }}', 'x c'],
    ['{{ all 1 "x" true }} {{ all 1 "" }} {{ any 0 "" "x" }} {{ any 0 "" }}', 'true false true false'],
    ['{{ ternary "foo" "bar" true }} {{ true | ternary "yes" "no" }} {{ ternary 1 2 false }}', 'foo yes 2'],
    ['{{ compact (list 1 "a" "" 0 .missing "foo") }}', '[1 a foo]'],
  ]);

  it('fail stops the render with the message', () => {
    assert.throws(() => render('{{ fail "please accept the license" }}'), /error calling fail: please accept the license$/);
  });

  it('ternary requires a bool', () => {
    assert.throws(() => render('{{ ternary 1 2 "x" }}'), /expected bool; found "x"/);
  });
});

describe('sprig: JSON', () => {
  table([
    ['{{ toJson . }}', '{"a":[1,"x",null],"b":{"c":true},"n":0}', { a: [1, 'x', null], b: { c: true }, n: 0 }],
    ['{{ toJson (list "<a&b>") }}|{{ toRawJson (list "<a&b>") }}', '["\\u003ca\\u0026b\\u003e"]|["<a&b>"]'],
    ['{{ toPrettyJson (dict "a" 1 "b" (list 1 2) "c" (dict)) }}', '{\n  "a": 1,\n  "b": [\n    1,\n    2\n  ],\n  "c": {}\n}'],
    ['{{ (fromJson "{\\"foo\\": 55}").foo }} {{ typeOf (fromJson "{\\"foo\\": 55}").foo }}', '55 float64'],
    ['{{ fromJson "not json" }}|{{ toJson (fromJson "[1,2.5,{}]") }}', '<no value>|[1,2.5,{}]'],
    ['{{ mustToJson (dict "a" 1) }}', '{"a":1}'],
  ]);

  it('mustFromJson reports the JSON error', () => {
    assert.throws(() => render('{{ mustFromJson "{" }}'), /error calling mustFromJson: unexpected end of JSON input/);
  });
});

describe('sprig: lists', () => {
  table([
    ['{{ list 1 "a" .missing }}', '[1 a <nil>]'],
    ['{{ first (list 1 2 3) }} {{ last (list 1 2 3) }} {{ rest (list 1 2 3) }} {{ initial (list 1 2 3) }}', '1 3 [2 3] [1 2]'],
    ['{{ first (list) }}|{{ toJson (rest (list)) }}', '<no value>|null'],
    ['{{ append (list 1 2) 3 }} {{ push (list 1) 2 }} {{ prepend (list 1 2) 0 }} {{ concat (list 1 2) (list 3) (list) }}', '[1 2 3] [1 2] [0 1 2] [1 2 3]'],
    ['{{ reverse (list 1 2 3) }} {{ uniq (list 1 1 2 "a" "a") }} {{ without (list 1 2 3 2) 2 }}', '[3 2 1] [1 2 a] [1 3]'],
    ['{{ has 4 (list 1 2 3 4) }} {{ has "4" (list 1 2 3 4) }} {{ has 1 .missing }}', 'true false false'],
    ['{{ slice (list 1 2 3 4 5) 1 3 }} {{ slice (list 1 2 3) 1 }} {{ slice (list 1 2 3) }}', '[2 3] [2 3] [1 2 3]'],
    ['{{ chunk 2 (list 1 2 3 4 5) }}', '[[1 2] [3 4] [5]]'],
    ['{{ .containers | len }} {{ first .containers }}', '2 map[name:a]', { containers: [{ name: 'a' }, { name: 'b' }] }],
  ]);

  it('fails on non-lists the way sprig does', () => {
    assert.throws(() => render('{{ first "abc" }}'), /error calling first: Cannot find first on type string/);
    assert.throws(() => render('{{ concat (list 1) "x" }}'), /Cannot concat type string as list/);
  });
});

describe('sprig: dicts', () => {
  const data = { user: { role: { humanName: 'curator' } } };
  table([
    ['{{ $d := dict "a" 1 "b" "two" }}{{ $d }} {{ get $d "a" }} {{ get $d "zz" }}|{{ hasKey $d "b" }} {{ hasKey $d "c" }}', 'map[a:1 b:two] 1 |true false'],
    ['{{ dict "a" }}', 'map[a:]'],
    ['{{ $d := dict "a" 1 }}{{ $_ := set $d "b" 2 }}{{ $d }}{{ $_ := unset $d "a" }} {{ $d }}', 'map[a:1 b:2] map[b:2]'],
    ['{{ keys (dict "b" 1 "a" 2) | sortAlpha }} {{ values (dict "a" "x") }}', '[a b] [x]'],
    ['{{ pick (dict "a" 1 "b" 2 "c" 3) "a" "c" }} {{ omit (dict "a" 1 "b" 2 "c" 3) "a" }}', 'map[a:1 c:3] map[b:2 c:3]'],
    ['{{ pluck "name" (dict "name" "n1") (dict "x" 1) (dict "name" "n2") }}', '[n1 n2]'],
    ['{{ dig "user" "role" "humanName" "guest" . }} {{ dig "user" "missing" "guest" . }}', 'curator guest', data],
    [
      '{{ $dst := dict "default" "default" "overwrite" "me" "key" true }}{{ $src := dict "overwrite" "overwritten" "key" false }}{{ merge (deepCopy $dst) $src }} {{ mergeOverwrite $dst $src }}',
      'map[default:default key:true overwrite:me] map[default:default key:false overwrite:overwritten]',
    ],
    ['{{ merge (dict "a" (dict "x" 1)) (dict "a" (dict "y" 2) "b" 3) }}', 'map[a:map[x:1 y:2] b:3]'],
    ['{{ $a := dict "l" (list 1) }}{{ $b := deepCopy $a }}{{ $_ := set $b "l" 2 }}{{ $a }}', 'map[l:[1]]'],
  ]);
});

describe('sprig: reflection', () => {
  table([
    ['{{ typeOf 1 }} {{ typeOf "s" }} {{ typeOf .n }} {{ typeOf .m }} {{ typeOf .l }} {{ typeOf .missing }} {{ typeOf now }}', 'int string json.Number map[string]interface {} []interface {} <nil> time.Time', { n: 1, m: {}, l: [] }],
    ['{{ kindOf 1 }} {{ kindOf .n }} {{ kindOf .m }} {{ kindOf .l }} {{ kindOf .missing }} {{ kindOf 1.5 }}', 'int string map slice invalid float64', { n: 1, m: {}, l: [] }],
    ['{{ typeIs "string" "x" }} {{ kindIs "map" .m }} {{ typeIsLike "*time.Time" now }}', 'true true true', { m: {} }],
    ['{{ deepEqual (list 1 (dict "a" "b")) (list 1 (dict "a" "b")) }} {{ deepEqual 1 .n }}', 'true false', { n: 1 }],
  ]);
});

describe('sprig: dates (clock fixed at 2024-03-05T07:08:09.12Z)', () => {
  table([
    ['{{ dateInZone "2006-01-02 15:04:05 MST" now "UTC" }}', '2024-03-05 07:08:09 UTC'],
    ['{{ dateInZone "Mon Jan _2 3:04PM .000" now "UTC" }}', 'Tue Mar  5 7:08AM .120'],
    ['{{ dateInZone "2006-01-02T15:04:05Z07:00" 0 "UTC" }}', '1970-01-01T00:00:00Z'],
    ['{{ dateInZone "2006-01-02 15:04 -0700" (toDate "2006-01-02T15:04Z07:00" "2024-06-01T12:00Z") "Asia/Tokyo" }}', '2024-06-01 21:00 +0900'],
    ['{{ dateInZone "15:04" now "No/Such_Zone" }}', '07:08'],
    ['{{ date "2006" now }} {{ htmlDateInZone now "UTC" }}', '2024 2024-03-05'],
    ['{{ toDate "2006-01-02" "2017-12-31" | date "02/01/2006" }}', '31/12/2017'],
    ['{{ (toDate "2006-01-02T15:04:05Z07:00" "2024-01-02T03:04:05+02:00").UTC }}', '2024-01-02 01:04:05 +0000 UTC'],
    ['{{ toDate "2006-01-02" "garbage" }}', '0001-01-01 00:00:00 +0000 UTC'],
    ['{{ unixEpoch now }} {{ now.Unix }} {{ now.Year }}', '1709622489 1709622489 2024'],
    ['{{ dateInZone "15:04" (dateModify "-1.5h" now) "UTC" }}|{{ dateInZone "15:04" (dateModify "junk" now) "UTC" }}', '05:38|07:08'],
    ['{{ duration "95" }} {{ duration 95 }} {{ duration (int64 3700) }}', '1m35s 0s 1h1m40s'],
    ['{{ durationRound "2h10m5s" }} {{ durationRound "400h" }} {{ durationRound "3s" }}', '2h 16d 3s'],
    ['{{ ago (dateModify "-90s" now) }}', '1m30s'],
  ]);

  it('mustToDate reports Go\'s parse error', () => {
    assert.throws(() => render('{{ mustToDate "2006-01-02" "2024-13-01" }}'), /error calling mustToDate: parsing time "2024-13-01": month out of range/);
  });

  it('date formats in the local zone', () => {
    assert.equal(render('{{ date "2006-01-02T15:04" now }}'), render('{{ dateInZone "2006-01-02T15:04" now "Local" }}'));
  });
});

describe('sprig: regular expressions', () => {
  table([
    ['{{ regexMatch "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\\\.[a-zA-Z]{2,}$" "test@acme.com" }}', 'true'],
    ['{{ regexFindAll "[2,4,6,8]" "123456789" -1 }} {{ regexFindAll "[2,4,6,8]" "123456789" 2 }}', '[2 4 6 8] [2 4]'],
    ['{{ regexFind "[a-zA-Z][1-9]" "abcd1234" }}', 'd1'],
    ['{{ regexReplaceAll "a(x*)b" "-ab-axxb-" "${1}W" }}|{{ regexReplaceAll "a(?P<x>x*)b" "-axb-" "[$x]" }}', '-W-xxW-|-[x]-'],
    ['{{ regexReplaceAllLiteral "a(x*)b" "-ab-axxb-" "${1}" }}', '-${1}-${1}-'],
    ['{{ regexSplit "z+" "pizza" -1 }} {{ regexSplit "z+" "pizza" 1 }}', '[pi a] [pizza]'],
    ['{{ regexQuoteMeta "1.2.3" }}', '1\\.2\\.3'],
    ['{{ regexMatch "(?i)^abc$" "ABC" }}', 'true'],
  ]);

  it('reports an invalid pattern', () => {
    assert.throws(() => render('{{ regexMatch "(" "x" }}'), /error calling regexMatch: regexp: Compile/);
  });
});

describe('sprig: semver, paths, environment, encoding, ids, urls', () => {
  table([
    ['{{ $v := semver "1.2.3-alpha.1+123" }}{{ $v.Major }}.{{ $v.Minor }}.{{ $v.Patch }} {{ $v.Prerelease }} {{ $v.Metadata }} {{ $v }}', '1.2.3 alpha.1 123 1.2.3-alpha.1+123'],
    ['{{ semverCompare ">=1.2.3" "1.2.3" }} {{ semverCompare "^1.2.0" "1.5.0" }} {{ semverCompare "~1.2.0" "1.3.0" }} {{ semverCompare ">= 1.2, < 2" "v1.9" }}', 'true true false true'],
    ['{{ base "foo/bar/baz" }} {{ dir "foo/bar/baz" }} {{ clean "foo/bar/../baz" }} {{ ext "foo.bar" }} {{ isAbs "/foo" }}', 'baz foo/bar foo/baz .bar true'],
    ['{{ base "" }} {{ dir "/" }} {{ clean "/../a//b/./c/" }}', '. / /a/b/c'],
    ['{{ env "HOME" }}|{{ env "NOPE" }}|{{ expandenv "hi $NAME, home ${HOME}$" }}', '/home/kwok||hi kwok, home /home/kwok$'],
    ['{{ urlParse "http://admin:secret@server.com:8080/api?list=false#anchor" | toJson }}', '{"fragment":"anchor","host":"server.com:8080","hostname":"server.com","opaque":"","path":"/api","query":"list=false","scheme":"http","userinfo":"admin:secret"}'],
    ['{{ urlJoin (dict "fragment" "fragment" "host" "host:80" "path" "/path" "query" "query" "scheme" "http") }}', 'http://host:80/path?query#fragment'],
  ]);

  it('uuidv4 produces a version 4 UUID', () => {
    assert.match(render('{{ uuidv4 }}'), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('declares the unsupported crypto functions so templates parse, and fails clearly when they run', () => {
    assert.throws(() => render('{{ genCA "x" 1 }}'), /genCA is not supported by kwokts/);
  });
});
