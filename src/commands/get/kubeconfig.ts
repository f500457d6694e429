import { Flags } from '@oclif/core';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { BaseCommand } from '../../cli/base-command.js';
import { loadCluster } from '../../cluster/record.js';
import { buildPortableKubeconfig, checkHostOverride, renderPortableKubeconfig } from '../../kube/index.js';
import { ADMIN_GROUPS, ADMIN_USER, signClientCertificate } from '../../pki/index.js';

export default class GetKubeconfig extends BaseCommand<typeof GetKubeconfig> {
  static override summary = "Print the cluster's kubeconfig";
  static override description =
    'Self-contained, as kwokctl prints it: only the cluster\'s context, certificates embedded as data (no file paths), so the output works from any directory. ' +
    `--host changes the server address, --insecure-skip-tls-verify drops server verification, and --user/--group other than ${ADMIN_USER}/${ADMIN_GROUPS.join(',')} sign a new client certificate for that identity with the cluster CA, so RBAC applies to it.`;
  static override examples = [
    '<%= config.bin %> get kubeconfig > kwok.kubeconfig',
    '<%= config.bin %> get kubeconfig --host 192.168.1.10',
    '<%= config.bin %> get kubeconfig --user alice --group devs > alice.kubeconfig',
  ];
  static override flags = {
    host: Flags.string({ description: 'override host[:port] of the server (a host alone keeps the port; port 1-65535, IPv6 with a port as [::1]:6443)', default: '127.0.0.1' }),
    'insecure-skip-tls-verify': Flags.boolean({ description: 'skip server certificate verification (the CA is left out)', default: false }),
    user: Flags.string({ description: 'user name (certificate CN); other than the default, a new certificate is signed', default: ADMIN_USER }),
    group: Flags.string({
      description: 'group (certificate O), repeatable or comma-separated; other than the default, a new certificate is signed',
      multiple: true,
      delimiter: ',',
      default: [...ADMIN_GROUPS],
    }),
  };

  async run(): Promise<void> {
    // Bad input is reported as such (exit 2) before the cluster is looked up.
    checkHostOverride(this.flags.host);
    const { paths } = await loadCluster(this.workdir, this.flags.name);
    const groups = this.flags.group;
    // kwokctl signs only when the identity differs from the admin certificate the cluster was made with.
    const custom = this.flags.user !== ADMIN_USER || groups.length !== ADMIN_GROUPS.length || groups.some((g, i) => g !== ADMIN_GROUPS[i]);
    let client: { cert: string; key: string } | undefined;
    if (custom) {
      const [caCert, caKey] = await Promise.all([readFile(paths.caCert, 'utf8'), readFile(paths.caKey, 'utf8')]);
      client = await signClientCertificate({ cert: caCert, key: caKey }, { user: this.flags.user, groups });
    }
    const config = await buildPortableKubeconfig(await readFile(paths.kubeconfig, 'utf8'), {
      baseDir: dirname(paths.kubeconfig),
      readFile: (path) => readFile(path, 'utf8'),
      host: this.flags.host,
      insecureSkipTlsVerify: this.flags['insecure-skip-tls-verify'],
      ...(client ? { client } : {}),
    });
    process.stdout.write(renderPortableKubeconfig(config));
  }
}
