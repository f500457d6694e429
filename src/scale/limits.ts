/**
 * What one `scale` accepts, apart from the code that scales: the command's help states these
 * limits, and checks them before it loads anything else.
 */
import { UsageError } from '../util/errors.js';

/**
 * The most copies one scale makes or keeps. Each is one object in etcd (a few KB with its
 * managed fields), so a million fill several GB of etcd's 8Gi default quota (--etcd-quota-backend-size),
 * and the plan holds one entry per copy in this process's memory: a count far past it (Node's
 * arrays stop at 2^32-1) used to end in a "Fatal JavaScript invalid size error" after seconds of work.
 */
export const MAX_REPLICAS = 1_000_000;

/**
 * Digits of the number suffix. A copy's name is also a label value (a node's
 * kubernetes.io/hostname), at most 63 characters: with a one-letter prefix and its dash, more
 * digits than this make no valid name (and a huge count allocated a string of that length).
 */
export const MAX_SERIAL_LENGTH = 61;

export function validateScale(options: { replicas: number; serialLength: number }): void {
  if (!Number.isInteger(options.replicas) || options.replicas < 0) throw new UsageError(`--replicas must be a whole number ≥ 0, not ${options.replicas}`);
  if (options.replicas > MAX_REPLICAS) {
    throw new UsageError(`--replicas ${options.replicas.toLocaleString('en-US', { useGrouping: false })} is more than one scale makes (at most ${MAX_REPLICAS})`, {
      hint: `scale to ${MAX_REPLICAS} or fewer; for more objects, run scale again with another name prefix (and raise --etcd-quota-backend-size)`,
    });
  }
  if (!Number.isInteger(options.serialLength) || options.serialLength < 0) throw new UsageError(`--serial-length must be a whole number ≥ 0, not ${options.serialLength}`);
  if (options.serialLength > MAX_SERIAL_LENGTH) throw new UsageError(`--serial-length ${options.serialLength} is more digits than a name holds (at most ${MAX_SERIAL_LENGTH})`);
  if (options.serialLength === 0 && options.replicas > 1) throw new UsageError('--serial-length 0 (no number suffix) allows at most one replica', { hint: 'use --serial-length 6 (the default) for several copies' });
}
