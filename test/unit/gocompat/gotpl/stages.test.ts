/**
 * kwok's default Stage templates rendered end to end: text trimmed and rendered as kwok's renderer
 * does, the output parsed as YAML, and the structure checked. The first cases replay kwok's own
 * stage fixtures (kustomize/stage/<set>/testdata/*.{input,output}.yaml) with the placeholder
 * functions of kwok's stage test harness (kustomize/stage/stage_test.go).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { compileTemplate, goSyntax, type FuncMap, type TemplateFunc } from '../../../../src/gocompat/gotpl/index.js';
import { NODE_HEARTBEAT_WITH_LEASE, NODE_INITIALIZE, POD_COMPLETE, POD_READY } from './kwok-upstream-templates.js';

/** kwok's renderer: trim the text, render, then read the result as YAML. */
function renderStatus(template: string, object: unknown, funcs: FuncMap): unknown {
  const out = compileTemplate(template.trim()).execute(object, funcs);
  return parseYaml(out);
}

/**
 * The placeholders of kwok's stage test harness: "<Name>" without arguments, otherwise
 * "<Name(args)>" with each argument in Go's %#v.
 */
function harnessStub(name: string): TemplateFunc {
  return (...args) => (args.length === 0 ? `<${name}>` : `<${name}(${args.map((a) => goSyntax(a)).join(', ')})>`);
}

const HARNESS_FUNCS: FuncMap = Object.fromEntries(
  ['NodeIP', 'NodeName', 'NodePort', 'PodIP', 'NodeIPWith', 'PodIPWith', 'Now', 'now', 'Version'].map((n) => [n, harnessStub(n)]),
);

describe("kwok's stage fixtures", () => {
  it('pod/fast pod-ready on testdata/pod-pending', () => {
    // kustomize/stage/pod/fast/testdata/pod-pending.input.yaml
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'pod-pending' }, spec: { containers: [{ name: 'container', image: 'image' }], nodeName: 'node' } };
    // kustomize/stage/pod/fast/testdata/pod-pending.output.yaml: stages[0].next[0].data.status
    assert.deepEqual(renderStatus(POD_READY, pod, HARNESS_FUNCS), {
      conditions: [
        { lastTransitionTime: '<Now>', status: 'True', type: 'Initialized' },
        { lastTransitionTime: '<Now>', status: 'True', type: 'Ready' },
        { lastTransitionTime: '<Now>', status: 'True', type: 'ContainersReady' },
      ],
      containerStatuses: [{ image: 'image', name: 'container', ready: true, restartCount: 0, state: { running: { startedAt: '<Now>' } } }],
      hostIP: '<NodeIPWith("node")>',
      initContainerStatuses: null,
      phase: 'Running',
      podIP: '<PodIPWith("node", false, "", "pod-pending", "")>',
      startTime: '<Now>',
    });
  });

  it('pod/fast pod-complete on testdata/pod-running-with-job', () => {
    // kustomize/stage/pod/fast/testdata/pod-running-with-job.input.yaml
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'pod-running-with-job', ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'job', uid: 'uid' }] },
      spec: { restartPolicy: 'Never', containers: [{ name: 'container', image: 'image' }], nodeName: 'node' },
      status: {
        containerStatuses: [{ image: 'image', name: 'container', ready: true, restartCount: 0, state: { running: { startedAt: '<Now>' } } }],
        podIP: '10.0.0.1',
        phase: 'Running',
      },
    };
    // kustomize/stage/pod/fast/testdata/pod-running-with-job.output.yaml
    assert.deepEqual(renderStatus(POD_COMPLETE, pod, HARNESS_FUNCS), {
      containerStatuses: [
        {
          image: 'image',
          name: 'container',
          ready: false,
          restartCount: 0,
          started: false,
          state: { terminated: { exitCode: 0, finishedAt: '<Now>', reason: 'Completed', startedAt: '<Now>' } },
        },
      ],
      phase: 'Succeeded',
    });
  });

  it('node/fast node-initialize on testdata/node-pending', () => {
    // kustomize/stage/node/fast/testdata/node-pending.input.yaml
    const node = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-pending' } };
    const status = renderStatus(NODE_INITIALIZE, node, HARNESS_FUNCS) as Record<string, unknown>;
    const conditions = [
      ['Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'],
      ['MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
      ['DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'],
      ['PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
      ['NetworkUnavailable', 'False', 'RouteCreated', 'RouteController created a route'],
    ].map(([type, st, reason, message]) => ({ lastHeartbeatTime: '<Now>', lastTransitionTime: '<Now>', message, reason, status: st, type }));
    // kustomize/stage/node/fast/testdata/node-pending.output.yaml. That fixture was generated from a
    // later template that always writes nodeInfo; the template pinned above writes it only when the
    // node already reports status.nodeInfo (covered below), so nodeInfo is absent here.
    assert.deepEqual(status, {
      addresses: [
        { address: '<NodeIP>', type: 'InternalIP' },
        { address: '<NodeName>', type: 'Hostname' },
      ],
      allocatable: { cpu: '1k', memory: '1Ti', pods: '1M' },
      capacity: { cpu: '1k', memory: '1Ti', pods: '1M' },
      conditions,
      daemonEndpoints: { kubeletEndpoint: { Port: '<NodePort>' } },
      phase: 'Running',
    });
  });
});

const NOW = '2024-05-06T07:08:09.123456789Z';

const CONTROLLER_FUNCS: FuncMap = {
  Now: () => NOW,
  NodeIP: () => '10.0.0.7',
  NodeName: () => 'node-7',
  NodePort: () => 10250,
  NodeIPWith: (nodeName) => (nodeName === 'node-1' ? '192.168.0.1' : 'unknown'),
  PodIPWith: (nodeName, hostNetwork, uid, name, namespace) =>
    `${String(nodeName)}/10.244.1.${String(name).length}-${String(hostNetwork)}-${String(uid)}-${String(namespace)}`,
};

describe('default stages on realistic objects', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'web-7d9f', namespace: 'prod', uid: '9f1c', creationTimestamp: '2024-05-06T07:00:00Z', labels: { app: 'web' } },
    spec: {
      nodeName: 'node-1',
      readinessGates: [{ conditionType: 'example.com/lb-ready' }],
      initContainers: [{ name: 'migrate', image: 'migrate:1.0' }],
      containers: [
        { name: 'app', image: 'registry.local/web:2.3.1', ports: [{ containerPort: 8080, protocol: 'TCP' }], resources: { requests: { cpu: '250m', memory: '64Mi' } } },
        { name: 'metrics', image: 'prom/exporter:0.1' },
      ],
    },
    status: { phase: 'Pending', qosClass: 'Burstable' },
  };

  it('pod-ready: conditions incl. readiness gates, one status per container, IPs from the controller', () => {
    const status = renderStatus(POD_READY, pod, CONTROLLER_FUNCS) as Record<string, unknown>;
    assert.deepEqual(
      (status.conditions as { type: string; status: string; lastTransitionTime: string }[]).map((c) => [c.type, c.status, c.lastTransitionTime]),
      [
        ['Initialized', 'True', NOW],
        ['Ready', 'True', NOW],
        ['ContainersReady', 'True', NOW],
        ['example.com/lb-ready', 'True', NOW],
      ],
    );
    assert.deepEqual(status.containerStatuses, [
      { image: 'registry.local/web:2.3.1', name: 'app', ready: true, restartCount: 0, state: { running: { startedAt: NOW } } },
      { image: 'prom/exporter:0.1', name: 'metrics', ready: true, restartCount: 0, state: { running: { startedAt: NOW } } },
    ]);
    assert.deepEqual(status.initContainerStatuses, [
      {
        image: 'migrate:1.0',
        name: 'migrate',
        ready: true,
        restartCount: 0,
        state: { terminated: { exitCode: 0, finishedAt: NOW, reason: 'Completed', startedAt: NOW } },
      },
    ]);
    assert.equal(status.hostIP, '192.168.0.1');
    assert.equal(status.podIP, 'node-1/10.244.1.8-false-9f1c-prod');
    assert.equal(status.phase, 'Running');
    assert.equal(status.startTime, NOW);
  });

  it('pod-ready passes hostNetwork through when set', () => {
    const hostPod = { ...pod, spec: { ...pod.spec, hostNetwork: true } };
    const status = renderStatus(POD_READY, hostPod, CONTROLLER_FUNCS) as Record<string, unknown>;
    assert.equal(status.podIP, 'node-1/10.244.1.8-true-9f1c-prod');
  });

  it('pod-complete: every container terminated, looked up by index in $root.status', () => {
    const running = {
      ...pod,
      metadata: { ...pod.metadata, ownerReferences: [{ kind: 'Job', name: 'j', apiVersion: 'batch/v1', uid: 'x' }] },
      status: {
        phase: 'Running',
        containerStatuses: [
          { name: 'app', ready: true, restartCount: 1 },
          { name: 'metrics', ready: true, restartCount: 0 },
        ],
      },
    };
    const status = renderStatus(POD_COMPLETE, running, CONTROLLER_FUNCS) as Record<string, unknown>;
    assert.equal(status.phase, 'Succeeded');
    assert.deepEqual(
      (status.containerStatuses as { name: string; ready: boolean; state: { terminated: { reason: string; exitCode: number } } }[]).map((c) => [
        c.name,
        c.ready,
        c.state.terminated.reason,
        c.state.terminated.exitCode,
      ]),
      [
        ['app', false, 'Completed', 0],
        ['metrics', false, 'Completed', 0],
      ],
    );
  });

  it('pod-complete fails like kwok when a container has no status to index', () => {
    const noStatus = { ...pod, status: { containerStatuses: [] } };
    assert.throws(() => renderStatus(POD_COMPLETE, noStatus, CONTROLLER_FUNCS), /error calling index: (reflect: slice index out of range|index out of range: \d+)/);
  });

  const node = {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: 'kwok-node-0', creationTimestamp: '2024-05-01T00:00:00Z', labels: { type: 'kwok' } },
    status: {
      addresses: [
        { address: '10.1.2.3', type: 'InternalIP' },
        { address: 'kwok-node-0', type: 'Hostname' },
      ],
      allocatable: { cpu: '32', memory: '256Gi', pods: '110', 'nvidia.com/gpu': '4' },
      capacity: { cpu: '32', memory: '256Gi', pods: '110', 'nvidia.com/gpu': '4' },
      nodeInfo: { architecture: 'arm64', kubeletVersion: 'v1.30.0', operatingSystem: 'linux' },
    },
  };

  it('node-initialize: keeps existing addresses and resources (embedded with YAML . 1), defaults nodeInfo fields', () => {
    const status = renderStatus(NODE_INITIALIZE, node, CONTROLLER_FUNCS) as Record<string, unknown>;
    assert.deepEqual(status.addresses, node.status.addresses);
    assert.deepEqual(status.allocatable, node.status.allocatable);
    assert.deepEqual(status.capacity, node.status.capacity);
    assert.deepEqual(status.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
    assert.deepEqual(status.nodeInfo, {
      architecture: 'arm64',
      bootID: '',
      containerRuntimeVersion: 'kwok-0.8.0',
      kernelVersion: 'kwok-0.8.0',
      kubeProxyVersion: 'kwok-0.8.0',
      kubeletVersion: 'v1.30.0',
      machineID: '',
      operatingSystem: 'linux',
      osImage: '',
      systemUUID: '',
    });
    const conditions = status.conditions as { type: string; status: string; lastHeartbeatTime: string; lastTransitionTime: string }[];
    assert.deepEqual(
      conditions.map((c) => [c.type, c.status]),
      [
        ['Ready', 'True'],
        ['MemoryPressure', 'False'],
        ['DiskPressure', 'False'],
        ['PIDPressure', 'False'],
        ['NetworkUnavailable', 'False'],
      ],
    );
    // .metadata.creationTimestamp exists, so it is the transition time; the heartbeat is Now.
    assert.ok(conditions.every((c) => c.lastTransitionTime === '2024-05-01T00:00:00Z' && c.lastHeartbeatTime === NOW));
    assert.equal(status.phase, 'Running');
  });

  it('node-heartbeat-with-lease: refreshes conditions, falls back to NodeIP/NodeName when the node has no addresses', () => {
    const bare = { ...node, metadata: { name: 'kwok-node-1' }, status: {} };
    const status = renderStatus(NODE_HEARTBEAT_WITH_LEASE, bare, CONTROLLER_FUNCS) as Record<string, unknown>;
    assert.deepEqual(status.addresses, [
      { address: '10.0.0.7', type: 'InternalIP' },
      { address: 'node-7', type: 'Hostname' },
    ]);
    assert.deepEqual(status.daemonEndpoints, { kubeletEndpoint: { Port: 10250 } });
    const conditions = status.conditions as { lastTransitionTime: string }[];
    assert.equal(conditions.length, 5);
    // No creationTimestamp: the transition time falls back to Now.
    assert.ok(conditions.every((c) => c.lastTransitionTime === NOW));
    assert.equal(Object.keys(status).sort().join(','), 'addresses,conditions,daemonEndpoints');
  });

  it('renders the heartbeat template with the real kwok functions (Now, Quote, YAML)', () => {
    const funcs: FuncMap = { NodeIP: () => '10.0.0.7', NodeName: () => 'n', NodePort: () => 10250 };
    const status = renderStatus(NODE_HEARTBEAT_WITH_LEASE, node, funcs) as Record<string, unknown>;
    const heartbeat = (status.conditions as { lastHeartbeatTime: string }[])[0]?.lastHeartbeatTime as string;
    assert.match(heartbeat, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/);
    assert.deepEqual(status.addresses, node.status.addresses);
  });
});
