import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { durationFlag } from '../cli/duration-flag.js';
import { MAX_REPLICAS, MAX_SERIAL_LENGTH, validateScale } from '../scale/limits.js';
import { UsageError } from '../util/errors.js';

export default class Scale extends BaseCommand<typeof Scale> {
  static override summary = 'Create or delete numbered copies of a templated resource (node, pod, or a KwokctlResource of yours)';
  static override description = [
    'Copies are named NAME-000000, NAME-000001, ... and labelled kwok.x-k8s.io/kwokctl-scale=NAME. Scaling up creates the lowest free numbers;',
    'scaling down deletes the newest copies. Templates: templates/resources/, or a KwokctlResource document in a -c file.',
  ].join(' ');
  static override examples = [
    '<%= config.bin %> scale node --replicas 100',
    "<%= config.bin %> scale pod --replicas 1000 --param '.nodeName=\"node-000000\"'",
    "<%= config.bin %> scale node big --replicas 3 --param '.allocatable.cpu=\"128\"' --param '.labels.size=\"big\"'",
  ];
  static override args = {
    kind: Args.string({ description: 'resource template name: node, pod, or a KwokctlResource name', required: true }),
    name: Args.string({ description: 'name prefix of the copies (default: the kind)' }),
  };
  static override flags = {
    replicas: Flags.integer({ description: `number of copies wanted (at most ${MAX_REPLICAS})`, default: 1 }),
    param: Flags.string({ description: 'jq assignment applied to the template parameters (repeatable)', multiple: true, default: [] }),
    namespace: Flags.string({ char: 'n', description: 'namespace of namespaced copies', default: 'default' }),
    'serial-length': Flags.integer({ description: `digits of the number suffix (0: no suffix, one replica; at most ${MAX_SERIAL_LENGTH})`, default: 6 }),
    pace: Flags.boolean({
      description: 'keep the copies created but not yet Ready (nodes, pods) to about a second of what the cluster makes Ready; --no-pace creates as fast as the apiserver answers (kwokts addition)',
      default: true,
      allowNo: true,
    }),
    concurrency: Flags.integer({ description: 'requests in flight', default: 32, hidden: true }),
    timeout: durationFlag({ description: 'a deadline for the whole command: past it the copies made so far are kept and the command exits 5 (default: none)' }),
  };

  async run(): Promise<void> {
    const { flags, args } = this;
    validateScale({ replicas: flags.replicas, serialLength: flags['serial-length'] });
    if (flags.concurrency < 1) throw new UsageError('--concurrency must be at least 1');
    // Imported here, not at the top: the help needs the flags, not the scale and kube client code.
    const [{ ApiGuard }, { loadCluster }, { findResource }, { clientForKubeconfig, scale }] = await Promise.all([
      import('../cluster/api-guard.js'),
      import('../cluster/record.js'),
      import('../scale/resource.js'),
      import('../scale/scale.js'),
    ]);
    const [cluster, config] = await Promise.all([loadCluster(this.workdir, flags.name), this.loadConfig()]);
    const resource = findResource(args.kind, config.resources);
    this.armTimeout(flags.timeout);
    // A component the apiserver needs that is down ends the scale in one line naming it (see api-guard.ts).
    const guard = await ApiGuard.open(cluster, { what: `scale ${args.kind}`, signal: this.abort.signal });
    const client = guard.watch(await clientForKubeconfig(cluster.paths.kubeconfig, flags.concurrency));
    const started = Date.now();
    const result = await guard.run(scale(client, {
      resource,
      name: args.name ?? args.kind,
      replicas: flags.replicas,
      params: flags.param,
      namespace: flags.namespace,
      serialLength: flags['serial-length'],
      concurrency: flags.concurrency,
      dryRun: flags['dry-run'],
      onProgress: (message) => this.logger.info(`${args.kind}: ${message}`),
      signal: guard.signal,
      cluster: flags.name,
      pace: flags.pace,
    }));
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const what = `${result.ref.resource} ${args.name ?? args.kind}`;
    if (flags['dry-run']) {
      this.log(`would scale ${what} from ${result.before} to ${flags.replicas}: create ${result.created.length}, delete ${result.deleted.length}`);
      return;
    }
    this.logger.info(`Scaled ${what} from ${result.before} to ${flags.replicas} (created ${result.created.length}, deleted ${result.deleted.length}) in ${seconds}s`);
  }
}
