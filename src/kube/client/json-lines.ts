/** Splits a watch response body (one JSON document per line) into parsed values. */
import type { Readable } from 'node:stream';

export async function* readJsonLines(stream: Readable): AsyncGenerator<unknown> {
  stream.setEncoding('utf8');
  let buffer = '';
  for await (const chunk of stream as AsyncIterable<string>) {
    buffer += chunk;
    let newline = buffer.indexOf('\n');
    while (newline >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (line !== '') yield JSON.parse(line);
      newline = buffer.indexOf('\n');
    }
  }
  const rest = buffer.trim();
  if (rest !== '') yield JSON.parse(rest);
}
