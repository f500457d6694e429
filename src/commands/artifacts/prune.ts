import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { resolveOptionValues } from '../../config/load.js';

export default class ArtifactsPrune extends BaseCommand<typeof ArtifactsPrune> {
  static override summary = "Free what the cache holds that no cluster needs: Go's caches, the builds' modules, unused binaries";
  static override description =
    "A build from Go modules leaves several GB of Go's build and module caches (kwokts's own, under <cache>/go) for a few hundred MB of binaries; binaries of other versions and their downloads pile up. Prune removes them and says how much it freed; with --dry-run it says what it would free. Binaries a cluster runs (its record names them) are kept, and so are those the next create cluster would use (the control plane, kubectl and etcdctl of the configured versions) unless --all, and everything of a build or download under way. A GOCACHE or GOMODCACHE you set is yours and is left alone. A later create downloads or builds again what it needs.";
  static override examples = ['<%= config.bin %> artifacts prune --dry-run', '<%= config.bin %> artifacts prune', '<%= config.bin %> artifacts prune --all'];
  static override flags = {
    all: Flags.boolean({ description: 'also remove the binaries the next create cluster would use (it then downloads or builds them again)', default: false }),
  };

  async run(): Promise<void> {
    const config = await this.loadConfig();
    // Imported here, not at the top: the help needs the flags, not the cache's plans.
    const { pruneAndReport } = await import('../../cli/prune-cache.js');
    await pruneAndReport({
      workdir: this.workdir,
      values: resolveOptionValues(config.fileOptions, process.env, {}),
      all: this.flags.all,
      executor: this.executor(),
      logger: this.logger,
      log: (line) => this.log(line),
    });
  }
}
