import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command.js';
import { planPortForward, runPortForward } from '../cluster/port-forward.js';
import { loadCluster } from '../cluster/record.js';

export default class PortForward extends BaseCommand<typeof PortForward> {
  static override summary = "Forward a local port to a component's port until interrupted";
  static override description =
    'PORT is a port number or the name of a port the component declares (`get components -o wide` lists them). The local side listens on 127.0.0.1 unless --address says otherwise; LOCAL_PORT 0 (or empty) picks a free one. Ctrl-C ends it.';
  static override examples = [
    '<%= config.bin %> port-forward kube-apiserver 8443:https',
    '<%= config.bin %> port-forward etcd 2379:http',
    '<%= config.bin %> port-forward kwok-controller :http',
  ];
  static override args = {
    component: Args.string({ description: 'component name', required: true }),
    ports: Args.string({ description: 'LOCAL_PORT:PORT (PORT: a number or a port name of the component)', required: true }),
  };
  static override flags = {
    address: Flags.string({ description: 'local address to listen on', default: '127.0.0.1' }),
  };

  // Ctrl-C is how a forward normally ends: no rollback warning, exit 0 (as kwokctl).
  protected override announceInterrupt = false;

  async run(): Promise<void> {
    const cluster = await loadCluster(this.workdir, this.flags.name);
    const plan = await planPortForward(cluster, { component: this.args.component, mapping: this.args.ports, address: this.flags.address });
    await runPortForward(plan, { executor: this.executor(), logger: this.logger, signal: this.abort.signal, print: (line) => this.log(line) });
  }
}
