/**
 * `npm run bench -- <name>`: benchmarks that print numbers (never pass/fail on time).
 *   create   time from `create cluster` to ready (binaries cached), then delete; kwokctl beside
 *            it on the same binaries when a kwokctl binary is found (KWOKCTL=/path or ~/go/bin).
 *            Rounds interleaved (kwokts, kwokctl, kwokts, ...), pair-by-pair ratios, load average;
 *            KWOKTS_BASELINE=/other/checkout/bin/run.cjs adds another kwokts build to the rotation.
 *            `create 3 --runtime binary,docker,podman`: create→ready per runtime instead.
 *   restore  etcd `snapshot restore`, kwokts and kwokctl interleaved, each on its own cluster
 *            with the same objects (`restore 5 --objects 200`).
 *   controller  our kwok controller vs Go kwok (KWOK=/path or ~/go/bin/kwok) on a fresh cluster
 *            each: N nodes Ready, M pods Running, M pods deleted, CPU and peak RSS
 *            (`--nodes 1000 --pods 2000 --concurrency 32 --timeout 300`; needs `npm run build`).
 *   scale-out  K controller shards (--shard) on one cluster: N nodes Ready, M pods Running, then a
 *            hold with per-minute nodes Ready, stale node leases, pods Running and RSS per process
 *            (`--nodes 5000 --pods 10000 --shards 2 --hold 2m --lease-duration 200`).
 *   scale    `kwokts scale` of nodes and pods (`--nodes 10 --pods 10000`), kwokctl's beside it when found.
 *   soak     a cluster left running: `kwokts scale` makes N dual-stack nodes and M pods, then every
 *            minute RSS and CPU of each process, NotReady nodes, late node leases, refused node
 *            status writes and the nodes whose heartbeat advanced; at the end the RSS slope of each
 *            process after warm-up (% per hour of its mean). Ours and Go kwok (with kwok's own
 *            stages) in turn, each on its own cluster (`--nodes 2000 --pods 20000 --minutes 30
 *            --tool ours|kwok|both`; `--heartbeat 30s` shortens the heartbeat stage's 10 minutes
 *            for a short run). The JSON is rewritten after every sample; needs `npm run build`.
 *   capacity  the most nodes a controller keeps Ready with 40 s node leases: ours and Go kwok in
 *            turn, each on a fresh cluster, the nodes grown in steps (`--steps 1000,2000,4000,8000,16000`),
 *            each held (`--hold 2m`) with a sample every 10 s; a step holds when no lease was late and
 *            no node left Ready; each tool stops at its first step that does not, or at half of
 *            `--minutes 30`. The JSON is rewritten after every sample; needs `npm run build`.
 *   startup  whole-process time of `--version`, `get clusters` and `kubectl version --client`,
 *            kwokts beside kwokctl and kubectl run directly, interleaved rounds (`startup 10`).
 * Each run (but scale-out's, which only prints) writes its figures as JSON and a picture as SVG
 * to bench-results/ (./results.ts).
 *   report   measures nothing: rewrites docs/performance.md from the runs committed in docs/bench/;
 *            `report --add bench-results/<run>.json` first puts a run there, in place of the
 *            earlier run of the same bench and parameters (./report.ts).
 */
import { benchCapacity } from './capacity.js';
import { benchController } from './controller.js';
import { benchCreate, benchRestore } from './create.js';
import { benchReport } from './report.js';
import { benchScale } from './scale.js';
import { benchScaleOut } from './scale-out.js';
import { benchSoak } from './soak.js';
import { benchStartup } from './startup.js';

const benches: Record<string, (args: string[]) => Promise<void>> = {
  create: benchCreate,
  restore: benchRestore,
  controller: benchController,
  scale: benchScale,
  'scale-out': benchScaleOut,
  soak: benchSoak,
  capacity: benchCapacity,
  startup: benchStartup,
  report: benchReport,
};
const [name = 'create', ...rest] = process.argv.slice(2);
const bench = benches[name];
if (!bench) {
  process.stderr.write(`unknown benchmark ${name}; one of: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
await bench(rest);
