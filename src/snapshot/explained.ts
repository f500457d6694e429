import { ExternalCommandError } from '../util/errors.js';
import { outputReason } from '../util/output-tail.js';

/** A failed etcdctl/etcdutl run, said in the user's terms with the tool's own reason; its output stays on the error. */
export async function explained<T>(what: string, hint: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof ExternalCommandError)) throw error;
    const reason = outputReason(error.output);
    throw new ExternalCommandError(`${what}: ${reason ?? error.message}`, error.command, error.output, { hint, cause: error });
  }
}
