/**
 * Bad input, across every command, config kind and KWOK_* variable: each case must exit with the
 * right non-zero code (never 0, never 70), print exactly one `error:` line that names what is
 * wrong (plus an optional `hint:`), and leave nothing half-made: no cluster directory, no
 * process of ours, the user's kubeconfig and config files byte-identical.
 *
 * Most cases fail before any process starts, so they run concurrently, each in its own sandbox.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import pLimit from 'p-limit';
import { fillDisk, INVOKED_RE, kwokts, requireBinaries, ROOT, sandbox, type Sandbox } from './harness.js';

const NAME = 'hd-bad';

interface Case {
  /** What is wrong, in a few words (the test's name). */
  what: string;
  args: string[];
  /** Expected exit code. */
  exit: number;
  /** The error line must match this (it names what is wrong). */
  error: RegExp;
  env?: Record<string, string>;
  /** Files written into the sandbox first (relative to it), for -c and friends; checked unchanged after. */
  files?: Record<string, string>;
  stdin?: string;
  /** Prepare the sandbox some other way (returns extra paths to check unchanged). */
  setup?: (dir: string) => void;
}

const GOOD_CONFIG = `apiVersion: config.kwok.x-k8s.io/v1alpha1
kind: KwokctlConfiguration
options:
  runtime: binary
`;
const STAGE = (body: string): string => `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: bad
spec:
${body}`;

const GOOD_STAGE = readFileSync(join(ROOT, 'templates', 'stages', 'pod-fast.yaml'), 'utf8');
const POD = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\nspec:\n  containers:\n  - name: c\n    image: busybox\n';

const create = (...more: string[]): string[] => ['--name', NAME, 'create', 'cluster', ...more];
const PORT_FLAGS = ['--kube-apiserver-port', '--etcd-port', '--kube-controller-manager-port', '--kube-scheduler-port', '--controller-port', '--prometheus-port'];
const PORT_ENVS = ['KWOK_KUBE_APISERVER_PORT', 'KWOK_ETCD_PORT', 'KWOK_KUBE_CONTROLLER_MANAGER_PORT', 'KWOK_KUBE_SCHEDULER_PORT', 'KWOK_CONTROLLER_PORT', 'KWOK_PROMETHEUS_PORT'];
const BOOL_ENVS = ['KWOK_SECURE_PORT', 'KWOK_KUBE_AUTHORIZATION', 'KWOK_KUBE_ADMISSION', 'KWOK_QUIET_PULL'];

const CASES: Case[] = [
  // Global flags and argv grammar.
  { what: 'unknown command', args: ['frobnicate'], exit: 2, error: /frobnicate/ },
  { what: 'unknown flag', args: create('--no-such-flag'), exit: 2, error: /--no-such-flag/ },
  { what: 'bad cluster name (uppercase)', args: ['--name', 'Bad_Name', 'create', 'cluster'], exit: 2, error: /Bad_Name/ },
  { what: 'bad cluster name (slash)', args: ['--name', 'a/b', 'get', 'components'], exit: 2, error: /a\/b/ },
  { what: 'empty cluster name', args: ['--name', '', 'create', 'cluster'], exit: 2, error: /name/ },
  { what: 'bad log level', args: ['-v', 'LOUD', 'get', 'clusters'], exit: 2, error: /LOUD/ },
  { what: 'flag without its value', args: create('--wait'), exit: 2, error: /--wait/ },
  // create cluster: flags.
  ...PORT_FLAGS.map((flag): Case => ({ what: `${flag} out of range`, args: create(flag, '70000'), exit: 2, error: new RegExp(`${flag}.*70000`) })),
  ...PORT_FLAGS.map((flag): Case => ({ what: `${flag} negative`, args: create(`${flag}=-5`), exit: 2, error: new RegExp(`${flag}.*-5`) })),
  { what: '--kube-apiserver-port not a number', args: create('--kube-apiserver-port', 'abc'), exit: 2, error: /--kube-apiserver-port.*abc/ },
  { what: '--bind-address not an IP', args: create('--bind-address', '1.2.3.999'), exit: 2, error: /--bind-address.*1\.2\.3\.999/ },
  { what: '--bind-address a name', args: create('--bind-address', 'localhost-ish'), exit: 2, error: /--bind-address/ },
  { what: '--wait not a duration', args: create('--wait', 'soon'), exit: 2, error: /--wait|soon/ },
  { what: '--wait negative', args: create('--wait', '-5s'), exit: 2, error: /--wait|-5s/ },
  { what: '--runtime unknown', args: create('--runtime', 'vmware'), exit: 2, error: /--runtime: unknown runtime "vmware"/ },
  { what: '--enable unknown component', args: create('--enable', 'kube-proxy'), exit: 2, error: /kube-proxy/ },
  { what: "--enable a kwokctl extra kwokts does not run", args: create('--enable=kueue'), exit: 2, error: /component kueue is one of kwokctl's extras that kwokts does not run yet/ },
  { what: '--disable etcd', args: create('--disable', 'etcd'), exit: 2, error: /etcd/ },
  { what: '--components leaves out the apiserver', args: create('--components', 'etcd'), exit: 2, error: /kube-apiserver/ },
  { what: '--enable-crds unknown kind', args: create('--enable-crds', 'Gadget'), exit: 2, error: /Gadget/ },
  { what: '--extra-args malformed', args: create('--extra-args', 'nonsense'), exit: 2, error: /nonsense|extra-args/ },
  { what: '--extra-args unknown component', args: create('--extra-args', 'kube-proxy=v=4'), exit: 2, error: /kube-proxy/ },
  { what: '--build-from-source unknown mode', args: create('--build-from-source', 'sometimes'), exit: 2, error: /sometimes/ },
  { what: '--kube-audit-policy missing file', args: create('--kube-audit-policy', '/nonexistent/audit.yaml'), exit: 2, error: /--kube-audit-policy: \/nonexistent\/audit\.yaml does not exist/ },
  { what: '--kube-scheduler-config missing file', args: create('--kube-scheduler-config', '/nonexistent/sched.yaml'), exit: 2, error: /sched/ },
  { what: 'a garbage kube-apiserver binary', args: create('--kube-apiserver-binary', 'GARBAGE'), exit: 3, error: /kube-apiserver.*not a program/, setup: (dir) => garbage(dir) },
  { what: 'a kube-apiserver binary that is not executable', args: create('--kube-apiserver-binary', 'NOEXEC'), exit: 3, error: /kube-apiserver.*not executable/, setup: (dir) => noexec(dir) },
  // create cluster: environment variables.
  ...PORT_ENVS.map((name): Case => ({ what: `${name} not a number`, args: create(), env: { [name]: 'abc' }, exit: 2, error: new RegExp(name) })),
  ...PORT_ENVS.slice(0, 3).map((name): Case => ({ what: `${name} out of range`, args: create(), env: { [name]: '99999' }, exit: 2, error: new RegExp(`${name}.*99999`) })),
  ...BOOL_ENVS.map((name): Case => ({ what: `${name} not a boolean`, args: create(), env: { [name]: 'maybe' }, exit: 2, error: new RegExp(name) })),
  { what: 'KWOK_BIND_ADDRESS not an IP', args: create(), env: { KWOK_BIND_ADDRESS: 'not-an-ip' }, exit: 2, error: /KWOK_BIND_ADDRESS/ },
  { what: 'KWOK_RUNTIME unknown', args: create(), env: { KWOK_RUNTIME: 'vmware' }, exit: 2, error: /KWOK_RUNTIME: unknown runtime "vmware"/ },
  // Named as the variable it came from (not as --build-from-source, which was not given).
  { what: 'KWOK_BUILD_FROM_SOURCE unknown', args: create(), env: { KWOK_BUILD_FROM_SOURCE: 'sometimes' }, exit: 2, error: /^error: KWOK_BUILD_FROM_SOURCE: "sometimes" is not a build mode$/ },
  // Refused as a version before any download or Go build (which blamed the module proxy).
  { what: 'KWOK_KUBE_VERSION not a version', args: create(), env: { KWOK_KUBE_VERSION: 'garbage' }, exit: 2, error: /^error: KWOK_KUBE_VERSION: "garbage" is not a version$/ },
  { what: 'KWOK_ETCD_VERSION not a version', args: create(), env: { KWOK_ETCD_VERSION: 'latest' }, exit: 2, error: /^error: KWOK_ETCD_VERSION: "latest" is not a version$/ },
  { what: 'get artifacts with KWOK_KUBE_VERSION not a version', args: ['get', 'artifacts'], env: { KWOK_KUBE_VERSION: 'garbage' }, exit: 2, error: /KWOK_KUBE_VERSION: "garbage" is not a version/ },
  { what: 'KWOK_KUBE_AUDIT_POLICY missing file', args: create(), env: { KWOK_KUBE_AUDIT_POLICY: '/nonexistent/audit.yaml' }, exit: 2, error: /KWOK_KUBE_AUDIT_POLICY: \/nonexistent\/audit\.yaml does not exist/ },
  { what: 'KWOK_WORKDIR is a file', args: create(), env: { KWOK_WORKDIR: 'FILE' }, exit: 3, error: /not a directory|in the way/, setup: (dir) => writeFileSync(join(dir, 'FILE'), 'x') },
  { what: 'KWOK_WORKDIR under a file', args: create(), env: { KWOK_WORKDIR: 'FILE/workdir' }, exit: 3, error: /not a directory|in the way/, setup: (dir) => writeFileSync(join(dir, 'FILE'), 'x') },
  // The user's kubeconfig.
  { what: 'kubeconfig not YAML', args: create(), exit: 2, error: /kubeconfig.*not valid YAML/, setup: (dir) => writeFileSync(join(dir, 'kubeconfig'), 'clusters: [\n') },
  { what: 'kubeconfig a list', args: create(), exit: 2, error: /kubeconfig.*not a kubeconfig/, setup: (dir) => writeFileSync(join(dir, 'kubeconfig'), '- a\n- b\n') },
  { what: 'kubeconfig clusters not a list', args: create(), exit: 2, error: /"clusters" is not a list/, setup: (dir) => writeFileSync(join(dir, 'kubeconfig'), 'apiVersion: v1\nkind: Config\nclusters: 5\n') },
  { what: '--kubeconfig a directory', args: create('--kubeconfig', 'DIR'), exit: 3, error: /DIR/, setup: (dir) => mkdirSync(join(dir, 'DIR')) },
  // Config files (-c) of each kind.
  { what: '-c missing file', args: ['-c', '/nonexistent/kwok.yaml', ...create()], exit: 2, error: /\/nonexistent\/kwok\.yaml/ },
  { what: '-c not YAML', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'options: [\n' }, exit: 2, error: /CONFIG/ },
  { what: '-c unknown kind', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: v1\nkind: Gizmo\nmetadata:\n  name: g\n' }, exit: 2, error: /Gizmo/ },
  { what: '-c document without kind', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: v1\nmetadata: {}\n' }, exit: 2, error: /kind/ },
  { what: 'KwokctlConfiguration port out of range', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: `${GOOD_CONFIG}  kubeApiserverPort: 70000\n` }, exit: 2, error: /kubeApiserverPort.*70000/ },
  { what: 'KwokctlConfiguration port a string', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: `${GOOD_CONFIG}  etcdPort: high\n` }, exit: 2, error: /etcdPort/ },
  { what: 'KwokctlConfiguration unknown runtime', args: ['-c', 'CONFIG', ...create()], env: { KWOK_RUNTIME: '' }, files: { CONFIG: 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokctlConfiguration\noptions:\n  runtime: vmware\n' }, exit: 2, error: /vmware/ },
  { what: 'KwokctlConfiguration bindAddress not an IP', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: `${GOOD_CONFIG}  bindAddress: nowhere\n` }, exit: 2, error: /bindAddress/ },
  { what: 'KwokctlConfiguration options not a mapping', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokctlConfiguration\noptions: 5\n' }, exit: 2, error: /options/ },
  { what: 'KwokctlConfiguration component patch for an unknown component', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokctlConfiguration\ncomponentsPatches:\n- name: kube-proxy\n  extraArgs:\n  - key: v\n    value: "4"\n' }, exit: 2, error: /kube-proxy/ },
  { what: 'Stage without resourceRef', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: STAGE('  next: {}\n') }, exit: 2, error: /bad|resourceRef/ },
  { what: 'Stage with a broken jq selector', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: STAGE('  resourceRef:\n    apiGroup: v1\n    kind: Pod\n  selector:\n    matchExpressions:\n    - key: ".metadata.name ((("\n      operator: Exists\n  next: {}\n') }, exit: 2, error: /bad/ },
  { what: 'KwokConfiguration with a bad field type', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: config.kwok.x-k8s.io/v1alpha1\nkind: KwokConfiguration\noptions:\n  nodeLeaseDurationSeconds: forever\n' }, exit: 2, error: /nodeLeaseDurationSeconds|forever/ },
  { what: 'a Logs object without spec', args: ['-c', 'CONFIG', ...create()], files: { CONFIG: 'apiVersion: kwok.x-k8s.io/v1alpha1\nkind: Logs\nmetadata:\n  name: x\n' }, exit: 2, error: /Logs|spec/ },
  { what: '-c - with garbage on stdin', args: ['-c', '-', ...create()], stdin: 'options: [\n', exit: 2, error: /stdin|-/ },
  { what: 'config view of a broken -c file', args: ['-c', 'CONFIG', 'config', 'view'], files: { CONFIG: 'options: [\n' }, exit: 2, error: /CONFIG/ },
  { what: 'config tidy of a broken -c file', args: ['-c', 'CONFIG', 'config', 'tidy'], files: { CONFIG: 'options: [\n' }, exit: 2, error: /CONFIG/ },
  { what: 'config convert of a missing file', args: ['config', 'convert', '/nonexistent/old.yaml'], exit: 2, error: /\/nonexistent\/old\.yaml/ },
  { what: 'config convert of garbage', args: ['config', 'convert', 'CONFIG'], files: { CONFIG: ': : :\n' }, exit: 2, error: /CONFIG/ },
  // Commands on a cluster that does not exist.
  // (delete of a missing cluster is not bad input: a warning and exit 0, as kwokctl; compat.e2e.ts checks it.)
  { what: 'start a missing cluster', args: ['--name', NAME, 'start', 'cluster'], exit: 4, error: /hd-bad/ },
  { what: 'stop a missing cluster', args: ['--name', NAME, 'stop', 'cluster'], exit: 4, error: /hd-bad/ },
  { what: 'get components of a missing cluster', args: ['--name', NAME, 'get', 'components'], exit: 4, error: /hd-bad/ },
  { what: 'get kubeconfig of a missing cluster', args: ['--name', NAME, 'get', 'kubeconfig'], exit: 4, error: /hd-bad/ },
  { what: 'kubectl on a missing cluster', args: ['--name', NAME, 'kubectl', 'get', 'ns'], exit: 4, error: /hd-bad/ },
  { what: 'etcdctl on a missing cluster', args: ['--name', NAME, 'etcdctl', 'get', '/'], exit: 4, error: /hd-bad/ },
  { what: 'logs of a missing cluster', args: ['--name', NAME, 'logs', 'etcd'], exit: 4, error: /hd-bad/ },
  { what: 'export logs of a missing cluster', args: ['--name', NAME, 'export', 'logs'], exit: 4, error: /hd-bad/ },
  { what: 'scale on a missing cluster', args: ['--name', NAME, 'scale', 'node', '--replicas', '2'], exit: 4, error: /hd-bad/ },
  { what: 'port-forward on a missing cluster', args: ['--name', NAME, 'port-forward', 'kube-apiserver', '8080:443'], exit: 4, error: /hd-bad/ },
  { what: 'snapshot save of a missing cluster', args: ['--name', NAME, 'snapshot', 'save', '--path', 'OUT'], exit: 4, error: /hd-bad/ },
  // Command-specific bad values.
  { what: 'scale --replicas not a number', args: ['--name', NAME, 'scale', 'node', '--replicas', 'x'], exit: 2, error: /--replicas.*x/ },
  { what: 'scale --replicas negative', args: ['--name', NAME, 'scale', 'node', '--replicas=-1'], exit: 2, error: /--replicas|-1/ },
  { what: 'scale --replicas past the limit', args: ['--name', NAME, 'scale', 'node', '--replicas', '99999999999999999999'], exit: 2, error: /--replicas 100000000000000000000 .*at most 1000000/ },
  { what: 'scale --serial-length past the limit', args: ['--name', NAME, 'scale', 'node', '--serial-length', '99999999999'], exit: 2, error: /--serial-length 99999999999 .*at most 61/ },
  { what: 'logs without a component', args: ['--name', NAME, 'logs'], exit: 2, error: /component/ },
  { what: 'get kubeconfig --host with a space and a port out of range', args: ['--name', NAME, 'get', 'kubeconfig', '--host', 'bad host:99999'], exit: 2, error: /--host.*"bad host" is not a host name or IP address/ },
  { what: 'get kubeconfig --host port out of range', args: ['--name', NAME, 'get', 'kubeconfig', '--host', '10.0.0.1:70000'], exit: 2, error: /--host.*port 70000 is not in 1-65535/ },
  { what: 'get components -o unknown', args: ['--name', NAME, 'get', 'components', '-o', 'xml'], exit: 2, error: /xml/ },
  { what: 'get artifacts -o unknown', args: ['get', 'artifacts', '-o', 'xml'], exit: 2, error: /xml/ },
  { what: 'snapshot --format unknown', args: ['--name', NAME, 'snapshot', 'save', '--path', 'OUT', '--format', 'zip'], exit: 2, error: /zip/ },
  { what: 'snapshot save without --path', args: ['--name', NAME, 'snapshot', 'save'], exit: 2, error: /path/ },
  { what: 'snapshot save into a missing directory', args: ['--name', NAME, 'snapshot', 'save', '--path', '/nonexistent/dir/snap.db'], exit: 2, error: /\/nonexistent\/dir/ },
  { what: 'snapshot save over an existing file', args: ['--name', NAME, 'snapshot', 'save', '--path', 'CONFIG'], files: { CONFIG: 'keep me\n' }, exit: 2, error: /CONFIG.*exists/ },
  { what: 'snapshot restore of a missing file', args: ['--name', NAME, 'snapshot', 'restore', '--path', '/nonexistent/snap.db'], exit: 4, error: /\/nonexistent\/snap\.db/ },
  { what: 'snapshot restore --format k8s of a non-YAML file', args: ['--name', NAME, 'snapshot', 'restore', '--format', 'k8s', '--path', 'CONFIG'], files: { CONFIG: '\x00\x01binary: [\n' }, exit: 2, error: /CONFIG.*not a YAML stream/ },
  { what: 'snapshot restore --format k8s of non-objects', args: ['--name', NAME, 'snapshot', 'restore', '--format', 'k8s', '--path', 'CONFIG'], files: { CONFIG: 'just: data\n' }, exit: 2, error: /CONFIG.*not a Kubernetes object/ },
  { what: 'stage test without -f', args: ['stage', 'test', '-c', 'CONFIG'], files: { CONFIG: GOOD_STAGE }, exit: 2, error: /-f|file/ },
  { what: 'stage test of a missing object file', args: ['stage', 'test', '-c', 'CONFIG', '-f', '/nonexistent/pod.yaml'], files: { CONFIG: GOOD_STAGE }, exit: 2, error: /\/nonexistent\/pod\.yaml/ },
  { what: 'stage test of a missing Stage file', args: ['stage', 'test', '-c', '/nonexistent/stage.yaml', '-f', 'OBJECT'], files: { OBJECT: POD }, exit: 2, error: /\/nonexistent\/stage\.yaml/ },
  { what: 'stage test without Stages', args: ['stage', 'test', '-f', 'OBJECT'], files: { OBJECT: POD }, exit: 2, error: /Stage/ },
  { what: 'stage test of a broken Stage', args: ['stage', 'test', '-c', 'CONFIG', '-f', 'OBJECT'], files: { CONFIG: STAGE('  next: {}\n'), OBJECT: POD }, exit: 2, error: /bad|resourceRef/ },
  { what: 'stage test of an object that is not YAML', args: ['stage', 'test', '-c', 'CONFIG', '-f', 'OBJECT'], files: { CONFIG: GOOD_STAGE, OBJECT: 'kind: [\n' }, exit: 2, error: /OBJECT/ },
  { what: 'stage test --now not a time', args: ['stage', 'test', '-c', 'CONFIG', '-f', 'OBJECT', '--now', 'yesterday'], files: { CONFIG: GOOD_STAGE, OBJECT: POD }, exit: 2, error: /yesterday|--now/ },
  { what: 'stage test --cidr not a CIDR', args: ['stage', 'test', '-c', 'CONFIG', '-f', 'OBJECT', '--cidr', 'banana'], files: { CONFIG: GOOD_STAGE, OBJECT: POD }, exit: 2, error: /banana|--cidr/ },
  { what: 'artifacts build of an unknown target', args: ['artifacts', 'build', 'kube-proxy-ng'], exit: 2, error: /kube-proxy-ng/ },
  { what: 'autoscaler check of a missing file', args: ['autoscaler', 'check', '-f', '/nonexistent/cm.yaml'], exit: 2, error: /\/nonexistent\/cm\.yaml/ },
  { what: 'deploy -o unknown', args: ['deploy', '-o', 'xml'], exit: 2, error: /xml/ },
  // The controller as a process (`kwokts kwok`): refused at start, before it waits for an apiserver
  // (none answers at 127.0.0.1:1, so a value accepted here would hang until the case's timeout).
  { what: 'kwok --manage-nodes-with-label-selector unparsable', args: ['kwok', '-c', 'CONFIG', '--master', 'http://127.0.0.1:1', '--manage-nodes-with-label-selector', '!!bad=('], files: { CONFIG: GOOD_STAGE }, exit: 2, error: /--manage-nodes-with-label-selector.*!bad=\(/ },
  { what: 'kwok --manage-single-node not a node name', args: ['kwok', '-c', 'CONFIG', '--master', 'http://127.0.0.1:1', '--manage-single-node', 'a,b'], files: { CONFIG: GOOD_STAGE }, exit: 2, error: /--manage-single-node.*"a,b" is not a valid node name/ },
  { what: 'kwok --server-address port out of range', args: ['kwok', '-c', 'CONFIG', '--master', 'http://127.0.0.1:1', '--manage-all-nodes', '--server-address', '127.0.0.1:99999'], files: { CONFIG: GOOD_STAGE }, exit: 2, error: /--server-address.*port 99999 is not in 0-65535/ },
  { what: 'kwok -c with a Metric whose CEL does not compile', args: ['kwok', '-c', 'CONFIG', '--master', 'http://127.0.0.1:1', '--manage-all-nodes'], files: { CONFIG: `${GOOD_STAGE}\n---\nkind: Metric\napiVersion: kwok.x-k8s.io/v1alpha1\nmetadata: {name: m}\nspec: {path: /metrics/x, metrics: [{name: a, kind: gauge, value: 'node.name +'}]}\n` }, exit: 2, error: /CONFIG: Metric m: spec\.metrics\.0\.value: invalid CEL expression "node\.name \+"/ },
  { what: 'export logs into a file', args: ['--name', NAME, 'export', 'logs', 'CONFIG'], files: { CONFIG: 'x\n' }, exit: 4, error: /hd-bad|CONFIG/ },
];

function garbage(dir: string): void {
  writeFileSync(join(dir, 'GARBAGE'), 'this is not a program\n');
  chmodSync(join(dir, 'GARBAGE'), 0o755);
}

function noexec(dir: string): void {
  writeFileSync(join(dir, 'NOEXEC'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(dir, 'NOEXEC'), 0o644);
}

/** Paths in a case are relative to its sandbox: FILE-like upper-case words are rewritten. */
function resolveWords(value: string, dir: string): string {
  return /^[A-Z]+(\/.*)?$/.test(value) ? join(dir, value) : value;
}

/** Processes (of any cluster) whose owner marker points into this sandbox. */
function markedProcesses(dir: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').some((e) => e.startsWith(`KWOKTS_OWNER=${dir}`))) out.push(Number(entry));
    } catch {
      /* gone or not ours */
    }
  }
  return out;
}

function snapshotFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!f.isFile()) continue;
    const path = join(f.parentPath, f.name);
    if (path.startsWith(join(dir, 'workdir'))) continue;
    out.set(path, readFileSync(path, 'latin1'));
  }
  return out;
}

async function runCase(c: Case): Promise<string[]> {
  const box: Sandbox = sandbox();
  const dir = join(box.workdir, '..');
  const problems: string[] = [];
  try {
    for (const [file, content] of Object.entries(c.files ?? {})) writeFileSync(join(dir, file), content);
    c.setup?.(dir);
    const before = snapshotFiles(dir);
    const env = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, resolveWords(v, dir)]));
    Object.assign(box.env, env);
    const args = c.args.map((a) => resolveWords(a, dir));
    const result = await kwokts(box, args, { ...(c.stdin !== undefined ? { input: c.stdin } : {}), timeoutMs: 120_000 });
    const lines = result.stderr.split('\n').filter((l) => l !== '');
    const errors = lines.filter((l) => l.startsWith('error:'));
    if (result.exitCode !== c.exit) problems.push(`exit ${result.exitCode}, expected ${c.exit}`);
    if (errors.length !== 1) problems.push(`${errors.length} error: lines`);
    else if (!c.error.test(errors[0]!.replace(dir + '/', ''))) problems.push(`error line does not match ${c.error}`);
    if (/^\s+at /m.test(result.stderr)) problems.push('a stack trace');
    const clusterDir = join(box.workdir, 'clusters', NAME);
    if (existsSync(clusterDir)) problems.push(`cluster directory ${clusterDir} left behind`);
    const procs = markedProcesses(dir);
    if (procs.length > 0) problems.push(`processes left: ${procs.join(', ')}`);
    const after = snapshotFiles(dir);
    for (const [path, content] of before) if (after.get(path) !== content) problems.push(`${path} changed`);
    if (problems.length > 0) problems.push(`stderr:\n${result.stderr}`);
  } finally {
    box.cleanup();
  }
  return problems;
}

describe('bad input', { timeout: 900_000 }, () => {
  test(`the table has at least 80 cases (${CASES.length})`, () => {
    assert.ok(CASES.length >= 80);
    assert.equal(new Set(CASES.map((c) => c.what)).size, CASES.length, 'case names are unique');
  });
  const limit = pLimit(Number(process.env.BAD_INPUT_CONCURRENCY ?? 4));
  // BAD_INPUT_ONLY=<regexp>: run only the cases whose name matches (the cases start here, before
  // --test-name-pattern could leave them out).
  const only = process.env.BAD_INPUT_ONLY ? new RegExp(process.env.BAD_INPUT_ONLY) : undefined;
  const chosen = CASES.filter((c) => !only || only.test(c.what));
  const results = new Map(chosen.map((c) => [c.what, limit(() => runCase(c))]));
  for (const c of chosen) {
    test(c.what, async () => {
      const problems = await results.get(c.what)!;
      assert.deepEqual(problems, [], `${c.args.join(' ')}: ${problems.join('; ')}`);
    });
  }
});

/**
 * A full disk under a stopped cluster (a small tmpfs as its workdir, filled): `start` must say to
 * free space on that file system, not to move KWOK_WORKDIR (the cluster lives there), and leave
 * nothing running. Needs the control-plane binaries, and root to mount the tmpfs (skipped without).
 */
describe('bad input: start on a full disk', { timeout: 600_000 }, () => {
  test('start names the full file system and starts nothing', async (t) => {
    requireBinaries();
    const box = sandbox();
    const dir = join(box.workdir, '..');
    const disk = join(dir, 'disk');
    mkdirSync(disk);
    const mounted = await execa('mount', ['-t', 'tmpfs', '-o', 'size=256m', 'tmpfs', disk], { reject: false });
    if (mounted.exitCode !== 0) {
      box.cleanup();
      t.skip(`cannot mount a tmpfs here: ${String(mounted.stderr).trim()}`);
      return;
    }
    box.env.KWOK_WORKDIR = join(disk, 'workdir');
    const name = 'bi-full';
    try {
      const created = await kwokts(box, ['--name', name, 'create', 'cluster', '--wait', '2m']);
      assert.equal(created.exitCode, 0, created.stderr);
      const stopped = await kwokts(box, ['--name', name, 'stop', 'cluster']);
      assert.equal(stopped.exitCode, 0, stopped.stderr);
      fillDisk(join(disk, 'filler'));
      const result = await kwokts(box, ['--name', name, 'start', 'cluster'], { timeoutMs: 120_000 });
      const lines = result.stderr.split('\n').filter((l) => l !== '');
      assert.notEqual(result.exitCode, 0, result.stderr);
      assert.notEqual(result.exitCode, 70, result.stderr);
      assert.equal(lines.filter((l) => l.startsWith('error:')).length, 1, result.stderr);
      assert.match(result.stderr, /^error: .*no space left on device/m);
      assert.match(result.stderr, new RegExp(`^hint: free space on the file system that holds ${disk.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\S* \\(see \`df -h \\S+\`\\), then try again$`, 'm'));
      assert.doesNotMatch(result.stderr, /KWOK_WORKDIR/);
      assert.doesNotMatch(result.stderr, /^\s+at /m, 'no stack');
      assert.deepEqual(markedProcesses(dir), [], 'no component left running');
    } finally {
      rmSync(join(disk, 'filler'), { force: true });
      await kwokts(box, ['--name', name, 'delete', 'cluster']);
      await execa('umount', [disk], { reject: false });
      box.cleanup();
    }
  });
});

/**
 * A create that fails under --retain keeps what it made, and everything it prints must agree:
 * the warning says the cluster is kept, and the hint must not say it was rolled back.
 */
describe('bad input: a failed create with --retain', { timeout: 600_000 }, () => {
  test('the cluster is kept and the hint says so (not "rolled back")', async () => {
    requireBinaries();
    const box = sandbox();
    const dir = join(box.workdir, '..');
    const scheduler = join(dir, 'bad-scheduler');
    writeFileSync(scheduler, '#!/bin/sh\necho "scheduler: refusing to start" >&2\nexit 1\n');
    chmodSync(scheduler, 0o755);
    const name = 'bi-retain';
    try {
      const result = await kwokts(box, ['--name', name, 'create', 'cluster', '--kube-scheduler-binary', scheduler, '--retain', '--wait', '2m']);
      assert.notEqual(result.exitCode, 0, result.stderr);
      assert.notEqual(result.exitCode, 70, result.stderr);
      assert.equal(result.stderr.split('\n').filter((l) => l.startsWith('error:')).length, 1, result.stderr);
      assert.match(result.stderr, /keeping the failed cluster bi-retain for debugging/);
      assert.match(result.stderr, new RegExp(`^hint: the cluster was kept \\(--retain\\): .*${INVOKED_RE} --name bi-retain delete cluster`, 'm'));
      assert.doesNotMatch(result.stderr, /rolled back|rerun with --retain/);
      assert.ok(existsSync(join(box.workdir, 'clusters', name)), 'the cluster directory is kept');
    } finally {
      await kwokts(box, ['--name', name, 'delete', 'cluster']);
      box.cleanup();
    }
  });
});
