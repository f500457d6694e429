import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command.js';
import { renderCompletionScript } from '../../cli/complete.js';

export default class CompletionZsh extends BaseCommand<typeof CompletionZsh> {
  static override summary = 'Generate the autocompletion script for zsh';
  static override description = 'It completes commands, flags and flag values by asking `<%= config.bin %> __complete`.';
  static override examples = ['source <(<%= config.bin %> completion zsh)'];
  static override flags = {
    'no-descriptions': Flags.boolean({ description: 'kwokctl\'s: disable completion descriptions; ignored by kwokts, which offers none', default: false }),
  };

  async run(): Promise<void> {
    this.log(renderCompletionScript('zsh', this.config.bin).trimEnd());
  }
}
