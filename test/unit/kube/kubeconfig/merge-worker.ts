/**
 * Child process for the concurrency test: waits for a shared start time, then merges
 * `count` clusters named `<prefix>-<i>` into the kubeconfig at `path`, all at once.
 */
import { mergeContext } from '../../../../src/kube/index.js';
import { kwokEntry } from './helpers.js';

const [path, prefix, count, startAt] = process.argv.slice(2);
if (path === undefined || prefix === undefined) throw new Error('usage: merge-worker <path> <prefix> <count> <startAtMs>');
while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 2));
await Promise.all(Array.from({ length: Number(count) }, (_, i) => mergeContext(path, kwokEntry(`${prefix}-${i}`, 30000 + i))));
