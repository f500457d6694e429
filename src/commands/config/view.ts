import { BaseCommand } from '../../cli/base-command.js';
import { effectiveConfigYaml } from '../../config/view.js';

export default class ConfigView extends BaseCommand<typeof ConfigView> {
  static override summary = 'Print the effective configuration';
  static override description = 'Defaults, then $KWOK_WORKDIR/kwok.yaml and -c files, then KWOK_* variables, merged as `create cluster` would use them (before its flags).';
  static override examples = ['<%= config.bin %> config view', '<%= config.bin %> -c my.yaml config view'];

  async run(): Promise<void> {
    process.stdout.write(effectiveConfigYaml(await this.loadConfig(), process.env));
  }
}
