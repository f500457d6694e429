import { BaseCommand } from '../../cli/base-command.js';
import { defaultConfigFile, resetDefaultConfig } from '../../config/view.js';

export default class ConfigReset extends BaseCommand<typeof ConfigReset> {
  static override summary = 'Remove the default config file, back to built-in defaults';
  static override examples = ['<%= config.bin %> config reset'];

  async run(): Promise<void> {
    const removed = await resetDefaultConfig(this.workdir);
    this.logger.info(removed ? `Removed ${defaultConfigFile(this.workdir)}` : `No ${defaultConfigFile(this.workdir)} to remove`);
  }
}
