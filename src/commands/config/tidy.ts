import { BaseCommand } from '../../cli/base-command.js';
import { effectiveConfigYaml, writeDefaultConfig } from '../../config/view.js';

export default class ConfigTidy extends BaseCommand<typeof ConfigTidy> {
  static override summary = 'Save the effective configuration as the default config file';
  static override description = 'Writes what `config view` prints to $KWOK_WORKDIR/kwok.yaml (default ~/.kwok/kwok.yaml), which every later command reads first. A previous file is kept as kwok.yaml.bak.';
  static override examples = ['<%= config.bin %> -c my.yaml config tidy'];

  async run(): Promise<void> {
    const { file, backup, changed } = await writeDefaultConfig(this.workdir, effectiveConfigYaml(await this.loadConfig(), process.env));
    if (!changed) this.logger.info(`${file} is already tidy; left unchanged`);
    else if (backup) this.logger.info(`Wrote ${file}; its previous content (comments included) is in ${backup}`);
    else this.logger.info(`Wrote ${file}`);
  }
}
