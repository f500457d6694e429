import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { UsageError } from '../../util/errors.js';

export default class ConfigConvert extends BaseCommand<typeof ConfigConvert> {
  static override summary = 'Convert config files to the current API version';
  static override description =
    'Every document gets its current apiVersion (config.kwok.x-k8s.io/v1alpha1 or kwok.x-k8s.io/v1alpha1), Stages lose the deprecated spellings (spec.next becomes spec.steps), and kwokctl\'s first config format becomes a KwokctlConfiguration. Prints the result, or with -w writes each file back in place. A file that is not valid configuration is an error naming it, and then no file is written.';
  static override examples = ['<%= config.bin %> config convert old.yaml', '<%= config.bin %> config convert -w ~/.kwok/kwok.yaml stages.yaml', 'cat old.yaml | <%= config.bin %> config convert -'];
  static override strict = false;
  static override args = {
    file: Args.string({ description: 'config file ("-" for stdin); several may be given', required: true }),
  };
  static override flags = {
    write: Flags.boolean({ char: 'w', description: 'write the converted files back in place instead of printing them', default: false }),
  };

  async run(): Promise<void> {
    const files = this.positionals;
    if (this.flags.write && files.includes('-')) throw new UsageError('-w cannot write stdin back', { hint: 'drop -w to print the converted documents' });
    // Imported here, not at the top: the help needs the flags, not the Stage engine the check loads.
    const { convertConfigFiles } = await import('../../config/convert.js');
    const converted = await convertConfigFiles(files, this.logger);
    if (!this.flags.write) {
      process.stdout.write(converted.map((f) => f.text).filter((t) => t !== '').join('---\n'));
      return;
    }
    const executor = this.executor();
    for (const file of converted) {
      if (!file.changed || file.text === '') {
        this.logger.info(`${file.path} is already current`);
        continue;
      }
      await executor.writeFile(file.target, file.text, { mode: file.mode });
      this.logger.info(`Converted ${file.path}`);
    }
  }
}
