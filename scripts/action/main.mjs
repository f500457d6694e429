// Entry of the kwokts GitHub Action (action.yaml, runs.main): the work is in run.sh, so it can be
// run and tested without a runner.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'run.sh');
const result = spawnSync('bash', [script, 'main'], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
