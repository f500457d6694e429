import { PassthroughCommand } from '../cli/passthrough-command.js';
import { PASSTHROUGH_COMMANDS } from '../cli/argv.js';
import { completeWords, completionTable } from '../cli/complete.js';
import { machineSources } from '../cli/complete-sources.js';

/** Called by the completion scripts: the candidates for the last word, one a line. */
export default class Complete extends PassthroughCommand {
  static override hidden = true;
  static override summary = 'Print completion candidates for the words given (used by the completion scripts)';

  async run(): Promise<void> {
    const table = completionTable(this.config, PASSTHROUGH_COMMANDS);
    for (const candidate of await completeWords(this.toolArgs(), table, machineSources(this.workdir))) this.log(candidate);
  }
}
