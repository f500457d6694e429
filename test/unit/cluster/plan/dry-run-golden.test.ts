/**
 * The dry-run transcript of `create cluster` per runtime, as golden files
 * (test/fixtures/dry-run/<case>.txt): the plan applied through the DryRunExecutor, exactly what
 * `kwokts create cluster --dry-run` prints on stdout. A change to any component's flags, a file,
 * or the order of the steps shows up here as a diff. After an intended change, regenerate with
 * `KWOKTS_UPDATE_GOLDEN=1 node --import tsx --test test/unit/cluster/plan/dry-run-golden.test.ts`
 * and review the diff.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPlan } from '../../../../src/cluster/apply-plan.js';
import { DryRunExecutor } from '../../../../src/exec/dry-run-executor.js';
import { silentLogger } from '../../../../src/util/log.js';
import { KWOKTS_VERSION } from '../../../../src/util/version.js';
import { packageRoot } from '../../../../src/util/package-root.js';
import { goPlatform } from '../../../../src/config/options.js';
import { GOLDEN_WORKDIR, planFor, type PlanCase } from './plan-harness.js';

const DIR = join(import.meta.dirname, '..', '..', '..', 'fixtures', 'dry-run');
const UPDATE = process.env.KWOKTS_UPDATE_GOLDEN === '1';

const CASES: Record<string, PlanCase> = {
  binary: { runtime: 'binary' },
  docker: { runtime: 'docker' },
  podman: { runtime: 'podman' },
  nerdctl: { runtime: 'nerdctl' },
  kind: { runtime: 'kind' },
  // Every optional step and component: CRDs with objects, metrics-server's APIService, prometheus, jaeger.
  'binary-all': { runtime: 'binary', flags: { enable: ['metrics-server', 'prometheus', 'jaeger'], enableCRDs: ['Stage', 'Metric'], kubeApiserverPort: 6443 } },
  'docker-all': { runtime: 'docker', flags: { enable: ['metrics-server', 'prometheus', 'jaeger'], enableCRDs: ['Stage'] } },
};

const CGROUP_V1_PATCH = 'kubeadmConfigPatches:\n  - |\n    kind: KubeletConfiguration\n    failCgroupV1: false\n';

async function transcript(c: PlanCase): Promise<string> {
  const lines: string[] = [];
  const plan = await planFor(c);
  await applyPlan(plan, { executor: new DryRunExecutor((t) => lines.push(t)), logger: silentLogger, signal: new AbortController().signal, retain: false });
  // What depends on the checkout, the release and the machine; everything else is pinned by the harness.
  const { goos, goarch } = goPlatform();
  return lines.join('\n')
    .replaceAll(packageRoot(), '<ROOT>')
    .replaceAll(KWOKTS_VERSION, '<KWOKTS_VERSION>')
    .replaceAll(`${goos}/${goarch}`, '<GOOS>/<GOARCH>')
    .replaceAll(`${goos}-${goarch}`, '<GOOS>-<GOARCH>')
    // Only on a cgroup v1 host does kind's config tell the kubelet to run there: left out so the
    // files hold on every host (test/unit/runtimes/kind/kind-config.test.ts covers the patch).
    .replace(CGROUP_V1_PATCH, '') + '\n';
}

for (const [name, c] of Object.entries(CASES)) {
  test(`create --dry-run transcript (${name}) matches test/fixtures/dry-run/${name}.txt`, async () => {
    const text = await transcript(c);
    assert.ok(text.includes(GOLDEN_WORKDIR), 'the transcript names the cluster directory');
    const file = join(DIR, `${name}.txt`);
    if (UPDATE || !existsSync(file)) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, text);
      if (!UPDATE) assert.fail(`${file} did not exist: written; review and commit it`);
      return;
    }
    assert.equal(text, readFileSync(file, 'utf8'), `dry-run transcript changed; if intended, rerun with KWOKTS_UPDATE_GOLDEN=1 and review the diff of ${file}`);
  });
}
