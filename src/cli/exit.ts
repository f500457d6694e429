/**
 * Exit once stdout and stderr are flushed, instead of when the event loop drains: while Node tears
 * an environment down it puts back the default signal handling, so a Ctrl-C in that window killed
 * a command that had already finished ("ready", then exit 130).
 */
export async function exitWhenFlushed(code: number): Promise<never> {
  await Promise.all([drain(process.stdout), drain(process.stderr)]);
  process.exit(code);
}

function drain(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0) resolve();
    else stream.write('', () => resolve());
  });
}
