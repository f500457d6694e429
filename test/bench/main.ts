/**
 * `npm run bench -- <name>`: benchmarks that print numbers (never pass/fail on time).
 *   create   time from `create cluster` to ready (binaries cached), then delete; kwokctl beside
 *            it on the same binaries when a kwokctl binary is found (KWOKCTL=/path or ~/go/bin).
 *            `create 3 --runtime binary,docker,podman`: create→ready per runtime instead.
 *   controller  our kwok controller vs Go kwok (KWOK=/path or ~/go/bin/kwok) on a fresh cluster
 *            each: N nodes Ready, M pods Running, M pods deleted, CPU and peak RSS
 *            (`--nodes 1000 --pods 2000 --concurrency 32 --timeout 300`; needs `npm run build`).
 *   scale-out  K controller shards (--shard) on one cluster: N nodes Ready, M pods Running, then a
 *            hold with per-minute nodes Ready, stale node leases, pods Running and RSS per process
 *            (`--nodes 5000 --pods 10000 --shards 2 --hold 2m --lease-duration 200`).
 *   scale    `kwokts scale` of nodes and pods (`--nodes 10 --pods 10000`), kwokctl's beside it when found.
 */
import { benchController } from './controller.js';
import { benchCreate } from './create.js';
import { benchScale } from './scale.js';
import { benchScaleOut } from './scale-out.js';

const benches: Record<string, (args: string[]) => Promise<void>> = { create: benchCreate, controller: benchController, scale: benchScale, 'scale-out': benchScaleOut };
const [name = 'create', ...rest] = process.argv.slice(2);
const bench = benches[name];
if (!bench) {
  process.stderr.write(`unknown benchmark ${name}; one of: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
await bench(rest);
