/**
 * `npm run bench -- <name>`: benchmarks that print numbers (never pass/fail on time).
 *   create   time from `create cluster` to ready (binaries cached), then delete; kwokctl beside
 *            it on the same binaries when a kwokctl binary is found (KWOKCTL=/path or ~/go/bin).
 */
import { benchCreate } from './create.js';

const benches: Record<string, (args: string[]) => Promise<void>> = { create: benchCreate };
const [name = 'create', ...rest] = process.argv.slice(2);
const bench = benches[name];
if (!bench) {
  process.stderr.write(`unknown benchmark ${name}; one of: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
await bench(rest);
