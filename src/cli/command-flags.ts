import { CLUSTER_LIST_FORMATS } from '../cluster/cluster-list-format.js';
import { DEFAULT_CLUSTER_NAME } from '../naming/naming.js';
import { DEFAULT_FILTER } from '../snapshot/k8s-format.js';
import { flagShapes, type FlagDecls } from './flag-decl.js';

// No oclif import here. The flags of BaseCommand and of the commands the fast path runs, each
// declared once: the oclif commands define theirs from these (oclif-flags.ts), the fast path
// reads arguments with them (fast-path.ts, create-cluster-flags.ts).

/** kwokctl's global flags, which every command takes. */
export const GLOBAL_FLAGS = {
  name: { type: 'option', description: 'cluster name', default: DEFAULT_CLUSTER_NAME, helpGroup: 'GLOBAL' },
  config: {
    type: 'option',
    char: 'c',
    description: 'config file (repeatable or comma-separated; "-" for stdin); $KWOK_WORKDIR/kwok.yaml is read first when it exists',
    multiple: true,
    delimiter: ',',
    default: [],
    defaultHelp: '~/.kwok/kwok.yaml',
    helpGroup: 'GLOBAL',
  },
  'dry-run': { type: 'boolean', description: 'print the commands that would run and change nothing', default: false, helpGroup: 'GLOBAL' },
  v: { type: 'option', char: 'v', description: 'log level: DEBUG, INFO, WARN, ERROR (or -4, 0, 4, 8)', default: 'INFO', helpGroup: 'GLOBAL' },
} as const satisfies FlagDecls;

export const GET_CLUSTERS_FLAGS = {
  output: { type: 'option', char: 'o', description: 'output format', options: CLUSTER_LIST_FORMATS, default: 'name' },
} as const satisfies FlagDecls;

export const DELETE_CLUSTER_FLAGS = {
  all: { type: 'boolean', description: 'delete every cluster', default: false },
  force: { type: 'boolean', description: "when the runtime cannot stop or remove the components (e.g. its engine is gone), warn and remove the cluster's files and kubeconfig context anyway", default: false },
  kubeconfig: { type: 'option', description: 'kubeconfig to remove the context from ("" to skip)', defaultHelp: '$KUBECONFIG or ~/.kube/config' },
} as const satisfies FlagDecls;

/** Flags every snapshot verb shares, kwokctl's names and defaults. */
export const SNAPSHOT_FLAGS = {
  path: { type: 'option', description: 'snapshot file', required: true },
  format: { type: 'option', description: 'etcd (an etcd snapshot) or k8s (a YAML stream of objects)', options: ['etcd', 'k8s'], default: 'etcd' },
  filter: { type: 'option', description: 'resources of a k8s snapshot (name, name.group or name.version.group; repeatable or comma-separated)', multiple: true, delimiter: ',', default: DEFAULT_FILTER },
} as const satisfies FlagDecls;

export const SNAPSHOT_RESTORE_FLAGS = {
  ...SNAPSHOT_FLAGS,
  replay: { type: 'boolean', description: 'k8s format: after the objects, replay the recorded changes with their timing', default: false },
} as const satisfies FlagDecls;

/** `--wait` and `--timeout` of create and start cluster (kwokctl's names, kwokts' defaults). */
export function waitFlags(verb: 'created' | 'started') {
  return {
    wait: {
      type: 'option',
      parse: 'duration',
      description: 'how long to wait for every component to be ready; exits 5 if they are not. 0 waits only until kube-apiserver serves (what kwokctl does without --wait)',
      defaultHelp: '2m',
    },
    timeout: {
      type: 'option',
      parse: 'duration',
      description: `a deadline for the whole command: past it the cluster ${verb === 'created' ? 'is rolled back' : 'is left as it is'} and the command exits 5 (default: none)`,
    },
  } as const satisfies FlagDecls;
}

/** `create cluster`'s flags besides the cluster options (optionFlags) and the global ones. */
export const CREATE_CLUSTER_OWN_FLAGS = {
  'extra-args': { type: 'option', description: 'extra argument for a component, COMPONENT=KEY=VALUE (repeatable), e.g. kube-apiserver=v=4', multiple: true, default: [] },
  kubeconfig: { type: 'option', description: 'kubeconfig to add the context to (default $KUBECONFIG or ~/.kube/config; "" to skip)' },
  ...waitFlags('created'),
  retain: { type: 'boolean', description: 'keep a cluster whose create failed, for debugging', default: false },
} as const satisfies FlagDecls;

export const GLOBAL_FLAG_SHAPES = flagShapes(GLOBAL_FLAGS);
