/**
 * Measures how much of kwokctl's `create cluster` surface kwokts accepts, from the options table:
 *
 *   node --import tsx test/tools/compare-kwokctl.ts [--kwokctl PATH] [--kwok-git DIR] [--ref v0.8.0]
 *
 * - flags: `kwokctl create cluster --help` (plus, with the source, the deprecated flags help hides);
 * - KWOK_* variables: the ones kwokctl's pkg/config/vars.go reads (needs the source: a kwok git
 *   directory, bare or not, given by --kwok-git or $KWOK_GIT); each one is also set for a run of
 *   `kwokctl config view` to see which field it changes, which must be the table's field;
 * - config fields: KwokctlConfigurationOptions' json names from the source, else the fields
 *   `kwokctl config view` prints; kwokctl's defaults (config view) are compared with the table's.
 *
 * Each item is counted as accepted with the same meaning (table: applied or differs), accepted
 * with a warning (table: unsupported) or missing. The kwokctl binary is --kwokctl, $KWOKCTL or
 * `kwokctl` on PATH; it runs with a throw-away KWOK_WORKDIR.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { parse as parseYaml } from 'yaml';
import CreateCluster from '../../src/commands/create/cluster.js';
import { BaseCommand } from '../../src/cli/base-command.js';
import { OPTION_SPECS, upstreamDefaults, type OptionSpec } from '../../src/config/options.js';

const { values: args } = parseArgs({ options: { kwokctl: { type: 'string' }, 'kwok-git': { type: 'string' }, ref: { type: 'string', default: 'v0.8.0' } } });
const kwokctl = args.kwokctl ?? process.env.KWOKCTL ?? 'kwokctl';
const gitDir = args['kwok-git'] ?? process.env.KWOK_GIT;
const specs = OPTION_SPECS as readonly OptionSpec[];
const workdir = mkdtempSync(join(tmpdir(), 'kwokts-compare-'));

function run(file: string, argv: string[], env: Record<string, string> = {}): string {
  return execFileSync(file, argv, { encoding: 'utf8', env: { ...process.env, KWOK_WORKDIR: workdir, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

function source(path: string): string | undefined {
  if (!gitDir) return undefined;
  return execFileSync('git', ['-C', gitDir, 'show', `${args.ref}:${path}`], { encoding: 'utf8' });
}

type Verdict = 'same' | 'warning' | 'missing';
const verdictOf = (spec: OptionSpec | undefined): Verdict => (!spec ? 'missing' : spec.honour === 'unsupported' ? 'warning' : 'same');

function report(title: string, items: ReadonlyMap<string, Verdict>): void {
  const count = (v: Verdict): string[] => [...items].filter(([, x]) => x === v).map(([k]) => k);
  const same = count('same');
  const warning = count('warning');
  const missing = count('missing');
  console.log(`${title}: ${items.size} in kwokctl; ${same.length} accepted with the same meaning, ${warning.length} accepted with a warning, ${missing.length} missing`);
  if (warning.length > 0) console.log(`  with a warning: ${warning.join(', ')}`);
  if (missing.length > 0) console.log(`  missing: ${missing.join(', ')}`);
}

// Flags.
const help = run(kwokctl, ['create', 'cluster', '--help']);
const kwokctlFlags = new Set([...help.matchAll(/^\s+(?:-\w, )?--([a-z0-9-]+)/gm)].map((m) => m[1]!).filter((f) => f !== 'help'));
const cluster = source('pkg/kwokctl/cmd/create/cluster/cluster.go');
if (cluster) for (const m of cluster.matchAll(/Flags\(\)\.\w+Var\([^,]+, "([a-z0-9-]+)"/g)) kwokctlFlags.add(m[1]!);
const ourFlags = new Set(Object.keys({ ...BaseCommand.baseFlags, ...CreateCluster.flags }));
const flagVerdicts = new Map<string, Verdict>();
for (const flag of [...kwokctlFlags].sort()) {
  const spec = specs.find((s) => s.flag === flag);
  flagVerdicts.set(flag, spec ? verdictOf(spec) : ourFlags.has(flag) ? 'same' : 'missing');
}
report(`create cluster flags${cluster ? '' : ' (from --help only: deprecated flags not counted)'}`, flagVerdicts);

// Config fields and kwokctl's defaults.
const view = parseYaml(run(kwokctl, ['config', 'view'])) as { options: Record<string, unknown> };
const baseline = view.options;
const types = source('pkg/apis/config/v1alpha1/kwokctl_configuration_types.go');
const fields = new Set(Object.keys(baseline));
if (types) {
  const body = types.slice(types.indexOf('type KwokctlConfigurationOptions struct'));
  for (const m of body.slice(0, body.indexOf('\n}\n')).matchAll(/json:"([A-Za-z]+)[,"]/g)) fields.add(m[1]!);
}
const fieldVerdicts = new Map<string, Verdict>();
for (const field of [...fields].sort()) fieldVerdicts.set(field, verdictOf(specs.find((s) => s.key === field)));
report(`KwokctlConfiguration options fields${types ? '' : ' (only those config view prints)'}`, fieldVerdicts);

const upstream = upstreamDefaults({}, workdir);
const wrongDefaults = Object.entries(baseline).filter(([key, value]) => specs.some((s) => s.key === key) && !isDeepStrictEqual(upstream.get(key), value));
console.log(`kwokctl defaults (config view): ${Object.keys(baseline).length} fields, ${wrongDefaults.length} differ from the table's kwokctl default`);
for (const [key, value] of wrongDefaults) console.log(`  ${key}: kwokctl ${JSON.stringify(value)}, table ${JSON.stringify(upstream.get(key))}`);

// KWOK_* variables.
const vars = source('pkg/config/vars.go');
const envNames = new Set<string>(['KWOK_WORKDIR']);
if (vars) {
  for (const line of vars.split('\n')) {
    if (line.trim().startsWith('//')) continue;
    for (const m of line.matchAll(/GetEnvWithPrefix\("([A-Z_]+)"/g)) envNames.add(`KWOK_${m[1]}`);
  }
} else {
  for (const s of specs) if (s.env && !s.kwoktsOnly && !s.additions?.includes('env')) envNames.add(s.env);
}
/** Where kwokctl v0.8.0's variables do not do what its documentation says; kwokts follows the documentation. */
const KWOKCTL_QUIRKS: Record<string, string> = {
  KWOK_KUBE_ADMISSION: 'read into a *bool that fmt.Sscan cannot fill, so never applied',
  KWOK_KUBE_AUTHORIZATION: "read after kubeAdmission's default was taken from kubeAuthorization, so admission does not follow it",
};
const quirks: string[] = [];
const envVerdicts = new Map<string, Verdict>();
const wrongMeaning: string[] = [];
for (const name of [...envNames].sort()) {
  if (name === 'KWOK_WORKDIR') {
    envVerdicts.set(name, 'same'); // src/naming/naming.ts
    continue;
  }
  const spec = specs.find((s) => s.env === name);
  envVerdicts.set(name, verdictOf(spec));
  if (!spec || spec.type === 'strings') continue; // kwokctl v0.8.0 cannot parse lists from a variable
  const probe = spec.type === 'boolean' ? String(!baseline[spec.key]) : spec.type === 'string' ? (spec.key.endsWith('Version') ? 'v1.99.0' : 'op-probe') : '4321';
  const changed = parseYaml(run(kwokctl, ['config', 'view'], { [name]: probe })) as { options: Record<string, unknown> };
  const moved = Object.keys(changed.options).filter((k) => !isDeepStrictEqual(changed.options[k], baseline[k])).sort();
  // What the table predicts: the field itself (if config view prints it) and every default derived from it.
  const probed = upstreamDefaults({ [spec.key]: probe === 'true' ? true : probe === 'false' ? false : spec.type === 'uint' ? 4321 : probe }, workdir);
  const printed = new Set([...Object.keys(baseline), ...Object.keys(changed.options)]);
  const expected = [...printed].filter((k) => k === spec.key || !isDeepStrictEqual(probed.get(k), upstream.get(k))).sort();
  if (KWOKCTL_QUIRKS[name]) quirks.push(`${name}: ${KWOKCTL_QUIRKS[name]} (kwokctl changes: ${moved.join(', ') || 'nothing'})`);
  else if (!isDeepStrictEqual(moved, expected)) wrongMeaning.push(`${name} (kwokctl changes: ${moved.join(', ') || 'nothing'}; the table predicts: ${expected.join(', ') || 'nothing'})`);
}
report(`KWOK_* variables${vars ? '' : ' (the table\'s own: no source to find the rest)'}`, envVerdicts);
console.log(`  set one at a time for kwokctl config view: ${wrongMeaning.length} change other fields than the table predicts${wrongMeaning.length ? ':' : ''}`);
for (const line of wrongMeaning) console.log(`    ${line}`);
if (quirks.length > 0) console.log(`  known kwokctl quirks (kwokts applies the variable as documented):\n${quirks.map((q) => `    ${q}`).join('\n')}`);

rmSync(workdir, { recursive: true, force: true });
