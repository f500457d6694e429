// Post step of the kwokts GitHub Action (action.yaml, runs.post): deletes the cluster the main
// step created, whatever happened in the job in between.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const script = join(dirname(fileURLToPath(import.meta.url)), 'run.sh');
const result = spawnSync('bash', [script, 'post'], { stdio: 'inherit' });
process.exitCode = result.status ?? 1;
