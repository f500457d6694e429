import { Flags } from '@oclif/core';
import { readFile } from 'node:fs/promises';
import { BaseCommand } from '../../cli/base-command.js';
import { contextName } from '../../cluster/naming.js';
import { loadCluster } from '../../cluster/record.js';
import { buildClusterKubeconfig, renderKubeconfig } from '../../kubeconfig/index.js';
import { signClientCertificate } from '../../pki/index.js';
import { UsageError } from '../../util/errors.js';

export default class GetKubeconfig extends BaseCommand<typeof GetKubeconfig> {
  static override summary = "Print the cluster's kubeconfig";
  static override description = 'Without --user, the admin kubeconfig. With --user (and --group), a kubeconfig with a new client certificate for that identity, signed by the cluster CA, so RBAC applies to it.';
  static override examples = ['<%= config.bin %> get kubeconfig > kwok.kubeconfig', '<%= config.bin %> get kubeconfig --user alice --group devs > alice.kubeconfig'];
  static override flags = {
    user: Flags.string({ description: 'user name (certificate CN) of a new client certificate' }),
    group: Flags.string({ description: 'group (certificate O) of the new client certificate; repeatable (default system:masters, as kwokctl: an admin)', multiple: true, default: [] }),
  };

  async run(): Promise<void> {
    const { record, paths } = await loadCluster(this.workdir, this.flags.name);
    if (this.flags.user === undefined) {
      if (this.flags.group.length > 0) throw new UsageError('--group needs --user', { hint: 'pass --user <name> with --group' });
      process.stdout.write(await readFile(paths.kubeconfig, 'utf8'));
      return;
    }
    const [caCert, caKey] = await Promise.all([readFile(paths.caCert, 'utf8'), readFile(paths.caKey, 'utf8')]);
    // kwokctl's default group is system:masters, so `--user x` alone is an admin named x.
    const groups = this.flags.group.length > 0 ? this.flags.group : ['system:masters'];
    const signed = await signClientCertificate({ cert: caCert, key: caKey }, { user: this.flags.user, groups });
    const apiserver = record.components.find((c) => c.name === 'kube-apiserver');
    const config = buildClusterKubeconfig({
      name: contextName(this.flags.name),
      server: `https://127.0.0.1:${apiserver?.probe?.port ?? 0}`,
      // Self-contained: the file is meant to be handed to someone or somewhere else.
      caData: caCert,
      certData: signed.cert,
      keyData: signed.key,
    });
    process.stdout.write(renderKubeconfig(config));
  }
}
