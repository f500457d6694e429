/**
 * The controller's write shortcuts (src/kwok/controllers/write-routes.ts: status PUTs, merge
 * patches, metadata-only answers, stages rendered in TypeScript) must leave exactly the objects
 * the plain writes leave (`--write-shortcuts=false`: each write as the stage says, every template
 * through the Go template engine, as kwok does). Two controllers on one cluster, each managing
 * one node by label, play kwokts's stages on the same node and pods; the objects are compared,
 * managedFields included, with names, uids, times and pod IPs left out.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, failure, kwokts, requireBinaries, ROOT, sandbox, waitFor, type Sandbox } from './harness.js';

const NAME = 'ws-routes';
const ROUTES = ['cheap', 'plain'] as const;
const PODS = 3;

type Json = Record<string, unknown>;

/**
 * The object with what legitimately differs between the two replaced: names, uids, times, pod
 * IPs (the two controllers hand them out in their own order), the service-account volume's
 * generated name, kubectl's last-applied annotation, and the order of managedFields entries (by when each
 * manager first wrote, which the two controllers need not share).
 */
function normalize(object: Json, route: string): unknown {
  const { 'kubectl.kubernetes.io/last-applied-configuration': _applied, ...annotations } = (object['metadata'] as { annotations?: Json }).annotations ?? {};
  const metadata = { ...(object['metadata'] as Json), annotations };
  const text = JSON.stringify({ ...object, metadata })
    .replaceAll(`ws-${route}`, 'ws-X')
    .replaceAll(`"route":"${route}"`, '"route":"X"')
    // A pod IP as a managedFields key, and the service-account volume's generated suffix.
    .replace(/k:\{\\"ip\\":\\"[^\\]+\\"\}/g, 'k:{IP}')
    .replace(/kube-api-access-[a-z0-9]+/g, 'kube-api-access-X');
  const walk = (value: unknown, key = ''): unknown => {
    if (Array.isArray(value)) {
      const items = value.map((v) => walk(v));
      return key === 'managedFields' ? items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))) : items;
    }
    if (value !== null && typeof value === 'object') {
      const out: Json = {};
      for (const [k, v] of Object.entries(value as Json)) {
        if (['uid', 'resourceVersion', 'creationTimestamp', 'time'].includes(k)) continue;
        out[k] = walk(v, k);
      }
      return out;
    }
    if (typeof value === 'string' && (/Time$|At$/.test(key) || key === 'startTime')) return 'TIME';
    if (typeof value === 'string' && ['podIP', 'ip'].includes(key)) return 'IP';
    return value;
  };
  return walk(JSON.parse(text));
}

describe('write shortcuts leave the objects plain writes leave', { timeout: 600_000 }, () => {
  let box: Sandbox;
  const controllers: ChildProcess[] = [];
  const kubectl = async (args: string[], input?: string): Promise<string> => {
    const result = await kwokts(box, ['--name', NAME, 'kubectl', ...args], input === undefined ? {} : { input });
    assert.equal(result.exitCode, 0, failure(result));
    return result.stdout;
  };

  before(async () => {
    requireBinaries();
    box = sandbox();
    const created = await kwokts(box, ['--name', NAME, 'create', 'cluster', '--disable', 'kwok-controller', '--wait', '2m']);
    assert.equal(created.exitCode, 0, failure(created));
    const stages = join(box.workdir, '..', 'stages.yaml');
    writeFileSync(stages, ['node-fast.yaml', 'node-heartbeat-with-lease.yaml', 'pod-fast.yaml'].map((f) => readFileSync(join(ROOT, 'templates', 'stages', f), 'utf8')).join('\n---\n'));
    const kubeconfig = join(box.workdir, 'clusters', NAME, 'kubeconfig.yaml');
    for (const route of ROUTES) {
      const args = [BIN, 'kwok', `--kubeconfig=${kubeconfig}`, `--config=${stages}`, `--manage-nodes-with-label-selector=route=${route}`, '--node-lease-duration-seconds=40', '--server-address=127.0.0.1:0', `--id=ws-${route}`];
      if (route === 'plain') args.push('--write-shortcuts=false');
      const child = spawn(process.execPath, args, { env: { ...process.env, ...box.env }, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr?.resume();
      controllers.push(child);
    }
  });
  after(async () => {
    for (const child of controllers) child.kill('SIGTERM');
    await kwokts(box, ['--name', NAME, 'delete', 'cluster']);
    box.cleanup();
  });

  test('nodes and pods are the same either way, managedFields included', async () => {
    const objects = ROUTES.flatMap((route) => [
      `apiVersion: v1\nkind: Node\nmetadata:\n  name: ws-${route}\n  labels: {route: ${route}, type: kwok}\n  annotations: {kwok.x-k8s.io/node: fake}\n`,
      ...Array.from({ length: PODS }, (_, i) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ws-${route}-${i}\n  namespace: default\nspec:\n  nodeName: ws-${route}\n  containers:\n  - {name: app, image: app}\n  - {name: sidecar, image: sidecar}\n`),
    ]);
    await kubectl(['apply', '-f', '-'], objects.join('---\n'));
    const get = async (): Promise<Json[]> => (JSON.parse(await kubectl(['get', 'nodes,pods', '-o', 'json', '--show-managed-fields'])) as { items: Json[] }).items;
    await waitFor(`2 nodes Ready and ${2 * PODS} pods Running`, async () => {
      const items = await get();
      const ready = items.filter((o) => o['kind'] === 'Node' && (o['status'] as { conditions?: Array<{ type: string; status: string }> }).conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
      const running = items.filter((o) => o['kind'] === 'Pod' && (o['status'] as { phase?: string }).phase === 'Running' && (o['status'] as { conditions?: unknown[] }).conditions?.length);
      return ready.length === 2 && running.length === 2 * PODS;
    }, 120_000);
    const items = await get();
    const byName = (name: string): Json => items.find((o) => (o['metadata'] as { name: string }).name === name)!;
    assert.deepEqual(normalize(byName('ws-plain'), 'plain'), normalize(byName('ws-cheap'), 'cheap'), 'the node');
    for (let i = 0; i < PODS; i++) assert.deepEqual(normalize(byName(`ws-plain-${i}`), 'plain'), normalize(byName(`ws-cheap-${i}`), 'cheap'), `pod ${i}`);
  });
});
