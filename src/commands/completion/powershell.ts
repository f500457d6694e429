import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { renderCompletionScript } from '../../cli/complete.js';

export default class CompletionPowershell extends BaseCommand<typeof CompletionPowershell> {
  static override summary = 'Generate the autocompletion script for powershell';
  static override description = 'It completes commands, flags and flag values by asking `<%= config.bin %> __complete`.';
  static override examples = ['<%= config.bin %> completion powershell | Out-String | Invoke-Expression'];
  static override flags = {
    'no-descriptions': Flags.boolean({ description: 'kwokctl\'s: disable completion descriptions; ignored by kwokts, which offers none', default: false }),
  };

  async run(): Promise<void> {
    this.log(renderCompletionScript('powershell', this.config.bin).trimEnd());
  }
}
