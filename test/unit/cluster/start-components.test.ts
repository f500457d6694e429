import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, describe, it } from 'node:test';
import type { Runtime, RuntimeContext } from '../../../runtimes/runtime.js';
import { runtimeState, startComponents } from '../../../src/cluster/start-components.js';
import type { Component, ComponentName } from '../../../src/components/index.js';
import type { ClusterPaths } from '../../../src/naming/naming.js';

/**
 * kube-apiserver's clients (kcm, scheduler, kwok controller) start once the apiserver serves,
 * neither before (their start-up would take CPU from the apiserver's own) nor only once it is
 * ready. The stand-in apiserver below answers 500 ("not ready") until kcm has been started, so
 * waiting for ready would never end, and it does not listen at all until it is started.
 */
describe('startComponents', () => {
  const servers: http.Server[] = [];
  after(() => servers.forEach((s) => s.close()));

  async function freePort(): Promise<number> {
    const s = http.createServer().listen(0, '127.0.0.1');
    await new Promise((r) => s.once('listening', r));
    const port = (s.address() as AddressInfo).port;
    await new Promise((r) => s.close(r));
    return port;
  }

  function component(name: ComponentName, port: number, extra: Partial<Component> = {}): Component {
    return { name, program: { path: '/bin/true' }, args: [], env: {}, links: [], ports: [{ name: 'http', port }], probe: { scheme: 'http', port, path: '/readyz', clientCert: false }, ...extra };
  }

  it('starts kube-apiserver clients once it answers, not once it is ready', async () => {
    const ports = { etcd: await freePort(), apiserver: await freePort(), kcm: await freePort() };
    const events: string[] = [];
    let kcmStarted = false;
    let apiserverAnswered = false;
    const serve = (port: number, ready: () => boolean, onRequest = (): void => undefined): void => {
      const server = http.createServer((_req, res) => {
        onRequest();
        res.writeHead(ready() ? 200 : 500).end(ready() ? 'ok' : 'not yet');
      });
      servers.push(server.listen(port, '127.0.0.1'));
    };
    const runtime = {
      info: () => ({ name: 'fake', mode: 'native' as const }),
      async start(group: readonly Component[]) {
        for (const c of group) {
          events.push(`start ${c.name}${c.name === 'kube-controller-manager' ? ` (apiserver answered: ${apiserverAnswered})` : ''}`);
          if (c.name === 'etcd') serve(ports.etcd, () => true);
          if (c.name === 'kube-apiserver') serve(ports.apiserver, () => kcmStarted, () => (apiserverAnswered = true));
          if (c.name === 'kube-controller-manager') {
            kcmStarted = true;
            serve(ports.kcm, () => true);
          }
        }
      },
      async status(components: readonly Component[]) {
        return components.map((c) => ({ name: c.name, state: 'running' as const }));
      },
    } as unknown as Runtime;
    const ctx = { executor: { dryRun: false } } as unknown as RuntimeContext;
    const components = [
      component('etcd', ports.etcd),
      component('kube-apiserver', ports.apiserver, { links: ['etcd'], retriesLinks: true }),
      component('kube-controller-manager', ports.kcm, { links: ['kube-apiserver'], retriesLinks: true, startsWhenLinksServe: true }),
    ];
    await startComponents(runtime, components, ctx, { paths: {} as ClusterPaths, waitMs: 60_000 });
    assert.deepEqual(events, ['start etcd', 'start kube-apiserver', 'start kube-controller-manager (apiserver answered: true)']);
  });

  it('runtimeState asks the runtime about one component and passes on its readiness where it knows it', async () => {
    const asked: string[][] = [];
    const runtime = {
      async status(components: readonly Component[]) {
        asked.push(components.map((c) => c.name));
        return components.map((c) =>
          c.name === 'etcd' ? { name: c.name, state: 'running' as const, ready: false } : c.name === 'kube-scheduler' ? { name: c.name, state: 'exited' as const } : { name: c.name, state: 'running' as const },
        );
      },
    } as unknown as Runtime;
    const components = (['etcd', 'kube-scheduler', 'kube-controller-manager'] as const).map((n) => component(n, 1));
    const state = runtimeState(runtime, components, {} as RuntimeContext);
    assert.deepEqual(await state('etcd'), { alive: true, ready: false });
    assert.deepEqual(await state('kube-scheduler'), { alive: false });
    assert.deepEqual(await state('kube-controller-manager'), { alive: true });
    assert.deepEqual(asked, [['etcd'], ['kube-scheduler'], ['kube-controller-manager']]);
  });
});
