#!/usr/bin/env node
// Lists where kwokts' commands and flags differ from kwokctl's: every command kwokctl has, and for
// each, the flags missing here, flags here that kwokctl lacks, and flags whose kind (boolean or
// value, single or list, shorthand) or default differ. It reads `kwokctl ... --help` (cobra),
// kwokts' oclif.manifest.json for the flags and `kwokts ... --help` for the defaults it shows
// (resolved as `config view` resolves them: run `npm run build` first).
// Usage: node scripts/compare-kwokctl-flags.mjs [path/to/kwokctl]   (default: $KWOKCTL, then kwokctl on PATH)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const kwokctl = process.argv[2] ?? process.env.KWOKCTL ?? 'kwokctl';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'oclif.manifest.json'), 'utf8'));
// Left out on purpose (other work: kectl passthrough, record/replay, metrics-server, jaeger).
const SKIPPED_COMMANDS = new Set(['kectl', 'help']);
// Passthrough: every argument, --help included, belongs to the tool.
const PASSTHROUGH = new Set(['kubectl', 'etcdctl']);
const SKIPPED_FLAGS = /^(jaeger|metrics-server|kueueviz)/;

const home = mkdtempSync(join(tmpdir(), 'compare-kwokctl-'));
function help(words, program = kwokctl, args = []) {
  // An empty home, shown as ~, so that defaults naming it read the same on every machine.
  const text = execFileSync(program, [...args, ...words, '--help'], { encoding: 'utf8', env: { ...process.env, KWOK_WORKDIR: join(home, '.kwok'), HOME: home } });
  return text.replaceAll(home, '~');
}

/**
 * The defaults kwokts' help shows, by flag name: `[default: X]`, or `(default X)` in the text. A
 * flag's text either follows its name on the line or starts on the next; both may wrap.
 */
function ourDefaults(words) {
  const defaults = new Map();
  let name;
  let text = [];
  const flush = () => {
    const joined = text.join(' ').replace(/\[default:\s+/, '[default: ');
    const shown = /\[default: ([^\]]*)\]/.exec(joined)?.[1] ?? /\(default:? ([^)]*)\)/.exec(joined)?.[1];
    if (name !== undefined && shown !== undefined) defaults.set(name, shown);
    name = undefined;
    text = [];
  };
  for (const line of help(words, process.execPath, [join(root, 'bin', 'run.cjs')]).split('\n')) {
    const flag = /^ {2,6}(?:-\w, )?--(?:\[no-\])?([\w-]+)(?:=\S+)?(?:\s{2,}(.*))?$/.exec(line);
    if (flag) {
      flush();
      name = flag[1];
      if (flag[2]) text.push(flag[2].trim());
    } else if (name !== undefined && /^\s{4,}\S/.test(line)) text.push(line.trim());
    else flush();
  }
  flush();
  return defaults;
}

function parseHelp(text) {
  const commands = [];
  const flags = new Map();
  let section = '';
  let last;
  for (const line of text.split('\n')) {
    if (/^\S.*:$/.test(line)) {
      section = line;
      last = undefined;
      continue;
    }
    if (/Commands:$/.test(section)) {
      const m = /^ {2}([a-z][\w-]*)\s{2,}/.exec(line);
      if (m) commands.push(m[1]);
    } else if (section === 'Flags:') {
      const m = /^\s+(?:-(\w), )?--([\w-]+)(?: ([^\s]+))?\s{2,}(.*)$/.exec(line) ?? /^\s+(?:-(\w), )?--([\w-]+)(?: ([^\s]+))?$/.exec(line);
      if (m) {
        last = { char: m[1], name: m[2], type: m[3] ?? 'bool', description: m[4] ?? '' };
        flags.set(last.name, last);
      } else if (last && /^\s{10,}\S/.test(line)) last.description += ' ' + line.trim();
    }
  }
  for (const f of flags.values()) f.default = /\(default (.*)\)$/.exec(f.description)?.[1];
  return { commands, flags };
}

function ours(words) {
  return manifest.commands[words.join(':')];
}

const lines = [];
function compare(words) {
  if (PASSTHROUGH.has(words.join(' '))) {
    if (!ours(words)) lines.push(`${words.join(' ')}: missing command`);
    return;
  }
  const theirs = parseHelp(help(words));
  for (const sub of theirs.commands) if (!SKIPPED_COMMANDS.has(sub)) compare([...words, sub]);
  if (theirs.commands.length > 0 && words.length > 0) return; // a topic
  if (words.length === 0) return;
  const id = words.join(' ');
  const command = ours(words);
  if (!command) {
    lines.push(`${id}: missing command`);
    return;
  }
  const mine = command.flags;
  const shownHere = ourDefaults(words);
  for (const [name, f] of theirs.flags) {
    if (name === 'help' || SKIPPED_FLAGS.test(name)) continue;
    const m = mine[name];
    if (!m) {
      lines.push(`${id}: missing --${name} (${f.type}${f.default ? `, default ${f.default}` : ''})`);
      continue;
    }
    const kind = f.type === 'bool' ? 'boolean' : 'option';
    if (m.type !== kind) lines.push(`${id}: --${name} is ${m.type} here, ${f.type} in kwokctl`);
    const list = /^(strings|stringArray)$/.test(f.type);
    if (kind === 'option' && Boolean(m.multiple) !== list) lines.push(`${id}: --${name} ${m.multiple ? 'is' : 'is not'} repeatable here; kwokctl type ${f.type}`);
    if ((m.char ?? undefined) !== f.char) lines.push(`${id}: --${name} shorthand ${m.char ? '-' + m.char : 'none'} here, ${f.char ? '-' + f.char : 'none'} in kwokctl`);
    if (f.default !== undefined && kind === 'option') {
      const shown = shownHere.get(name);
      // kwokctl quotes strings and brackets lists; kwokts shows neither.
      const norm = (s) => s?.replace(/^"|"$/g, '').replace(/^\[(.*)\]$/, '$1');
      if (norm(shown) !== norm(f.default)) lines.push(`${id}: --${name} default ${shown ?? '(none)'} here, ${f.default} in kwokctl`);
    }
  }
  const global = new Set(['name', 'config', 'dry-run', 'v']);
  for (const [name, m] of Object.entries(mine)) {
    if (global.has(name) || m.hidden || theirs.flags.has(name)) continue;
    lines.push(`${id}: extra --${name} (kwokts only)`);
  }
}

compare([]);
rmSync(home, { recursive: true, force: true });
process.stdout.write(lines.join('\n') + (lines.length ? '\n' : ''));
