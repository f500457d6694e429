/**
 * `kubectl attach` to a fake container, as kwok does it: the entry's log file stands for the
 * container's output, and attaching shows what is appended to it from now on (the file's current
 * content is not replayed, like attaching to a running process), until the client goes away.
 * Both of the file's streams go to stdout; stdin is read and dropped.
 */
import type { AttachEntry } from '../api/streaming-schema.js';
import { openLogFile, streamLogFile } from './log-file-reader.js';
import type { OpenLogFile } from './log-file-reader.js';
import type { CommandOutcome, RemoteCommandStreams } from './remote-command.js';

export async function runAttach(entry: AttachEntry, container: string, ref: string, streams: RemoteCommandStreams): Promise<CommandOutcome> {
  const path = entry.logsFile ?? '';
  let file: OpenLogFile;
  try {
    file = await openLogFile(path);
  } catch (error) {
    return { kind: 'error', message: `failed to open log file "${path}" for container "${container}" in pod "${ref}": ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` };
  }
  streams.stdin?.resume();
  const out = streams.stdout;
  await streamLogFile(
    file,
    { tailLines: 0, follow: true, timestamps: false },
    (chunk) =>
      new Promise<void>((resolve) => {
        if (!out || out.destroyed || out.write(chunk)) return resolve();
        out.once('drain', resolve);
        out.once('close', resolve);
      }),
    streams.signal,
  );
  return { kind: 'success' };
}
