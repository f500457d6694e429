import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { APISERVER_TRACING_NODE_PATH, CONTROLLER_TLS_NODE_DIR, ETCD_CA_NODE_DIR, controllerHostDirs, fillImage, kindApiserverTracingConfig, kubeadmApiOf, renderControllerManifests, renderKindConfig } from '../../../../runtimes/kind/kind-config.js';
import { inClusterNode, type Component } from '../../../../src/components/index.js';
import { kindPrometheusConfig } from '../../../../runtimes/kind/kind-prometheus.js';
import { etcdMemberArgs } from '../../../../runtimes/kind/kind-runtime.js';
import { templatePath } from '../../../../src/util/package-root.js';

const component = (name: Component['name'], port: number): Component => ({
  name,
  program: { artifact: 'kube-apiserver' },
  args: [],
  env: {},
  links: [],
  ports: [{ name: 'p', port }],
  probe: { scheme: 'http', port, path: '/', clientCert: false },
});

test('kind config: apiserver and controller published on loopback at the cluster ports', () => {
  const config = parse(renderKindConfig([component('kube-apiserver', 32766), component('kwok-controller', 32765)])) as Record<string, unknown>;
  assert.deepEqual(config, {
    kind: 'Cluster',
    apiVersion: 'kind.x-k8s.io/v1alpha4',
    networking: { apiServerAddress: '127.0.0.1', apiServerPort: 32766 },
    nodes: [{ role: 'control-plane', extraPortMappings: [{ containerPort: 10247, hostPort: 32765, listenAddress: '127.0.0.1', protocol: 'TCP' }] }],
  });
  const noController = parse(renderKindConfig([component('kube-apiserver', 1)])) as { nodes: unknown[] };
  assert.deepEqual(noController.nodes, [{ role: 'control-plane' }]);
});

test('kind config on a cgroup v1 host: the kubelet is told to run there (it refuses v1 by default since 1.35)', () => {
  const config = parse(renderKindConfig([component('kube-apiserver', 1)], { cgroupV1: true })) as { kubeadmConfigPatches: string[] };
  assert.deepEqual(config.kubeadmConfigPatches.map((p) => parse(p) as unknown), [{ kind: 'KubeletConfiguration', failCgroupV1: false }]);
  assert.equal((parse(renderKindConfig([component('kube-apiserver', 1)], { cgroupV1: false })) as Record<string, unknown>)['kubeadmConfigPatches'], undefined);
});

test('the controller manifests reference the image given, and manage only fake nodes', () => {
  const text = renderControllerManifests(readFileSync(templatePath('kind', 'kwok-controller.yaml'), 'utf8'), 'ghcr.io/kwokts/kwok:v0.1.0');
  const docs = parseAllDocuments(text).map((d) => d.toJSON() as { kind: string; spec?: { template: { spec: { containers: Array<{ image: string; args: string[] }> } } } });
  assert.deepEqual(docs.map((d) => d.kind), ['ServiceAccount', 'ClusterRoleBinding', 'Deployment']);
  const container = docs[2]!.spec!.template.spec.containers[0]!;
  assert.equal(container.image, 'ghcr.io/kwokts/kwok:v0.1.0');
  assert.ok(container.args.includes('--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake'));
  assert.ok(!text.includes('${'), 'no placeholder left');
});

test("kind config with the cluster's CA: mounted where kubeadm takes an existing CA, read-only, so the cluster's ca.key signs for it", () => {
  const config = parse(renderKindConfig([component('kube-apiserver', 1)], { ca: { cert: '/c/pki/ca.crt', key: '/c/pki/ca.key' } })) as { nodes: Array<Record<string, unknown>> };
  assert.deepEqual(config.nodes[0]!['extraMounts'], [
    { hostPath: '/c/pki/ca.crt', containerPath: '/etc/kubernetes/pki/ca.crt', readOnly: true },
    { hostPath: '/c/pki/ca.key', containerPath: '/etc/kubernetes/pki/ca.key', readOnly: true },
  ]);
});

test("the directories of Logs and Attach files reach the controller's pod at their own paths, through the node at kwokctl's /var/components/controller<dir>", () => {
  const controller: Component = { ...component('kwok-controller', 2), mounts: [{ path: '/w/clusters/c/kubeconfig.yaml', readOnly: true }, { path: '/w/clusters/c/pki', readOnly: true }, { path: '/data/logs', readOnly: true }] };
  const dirs = controllerHostDirs(controller, '/w/clusters/c');
  assert.deepEqual(dirs, ['/data/logs'], "the cluster's own files are not among them");
  const config = parse(renderKindConfig([component('kube-apiserver', 1), controller], { controllerDirs: dirs })) as { nodes: Array<Record<string, unknown>> };
  assert.deepEqual(config.nodes[0]!['extraMounts'], [{ hostPath: '/data/logs', containerPath: '/var/components/controller/data/logs', readOnly: true }]);
  const text = renderControllerManifests(readFileSync(templatePath('kind', 'kwok-controller.yaml'), 'utf8'), 'img:1', dirs);
  const pod = (parseAllDocuments(text)[2]!.toJSON() as { spec: { template: { spec: { volumes: unknown[]; containers: Array<{ volumeMounts: unknown[] }> } } } }).spec.template.spec;
  assert.deepEqual(pod.volumes.at(-1), { name: 'controller-files-0', hostPath: { path: '/var/components/controller/data/logs', type: 'Directory' } });
  assert.deepEqual(pod.containers[0]!.volumeMounts.at(-1), { name: 'controller-files-0', mountPath: '/data/logs', readOnly: true });
  assert.equal(renderControllerManifests('kind: ServiceAccount\n', 'img:1'), 'kind: ServiceAccount\n', 'without directories the template is only filled in');
});

test("the controller serves TLS in kind (kube-apiserver reaches it over HTTPS for logs, exec, attach, port-forward): the cluster's admin certificate, through the node, read-only; its callers need the cluster CA's certificate", () => {
  const config = parse(renderKindConfig([component('kube-apiserver', 1)], { controllerTls: { cert: '/c/pki/admin.crt', key: '/c/pki/admin.key', ca: '/c/pki/ca.crt' } })) as { nodes: Array<Record<string, unknown>> };
  assert.deepEqual(config.nodes[0]!['extraMounts'], [
    { hostPath: '/c/pki/admin.crt', containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.crt`, readOnly: true },
    { hostPath: '/c/pki/admin.key', containerPath: `${CONTROLLER_TLS_NODE_DIR}/tls.key`, readOnly: true },
    { hostPath: '/c/pki/ca.crt', containerPath: `${CONTROLLER_TLS_NODE_DIR}/ca.crt`, readOnly: true },
  ]);
  const text = renderControllerManifests(readFileSync(templatePath('kind', 'kwok-controller.yaml'), 'utf8'), 'img:1');
  const pod = (parseAllDocuments(text)[2]!.toJSON() as { spec: { template: { spec: { volumes: Array<{ name: string; hostPath?: { path: string } }>; containers: Array<{ args: string[]; volumeMounts: Array<{ name: string; mountPath: string }> }> } } } }).spec.template.spec;
  assert.equal(pod.volumes.find((v) => v.name === 'tls')?.hostPath?.path, CONTROLLER_TLS_NODE_DIR);
  const mount = pod.containers[0]!.volumeMounts.find((m) => m.name === 'tls')!.mountPath;
  assert.ok(pod.containers[0]!.args.includes(`--tls-cert-file=${mount}/tls.crt`) && pod.containers[0]!.args.includes(`--tls-private-key-file=${mount}/tls.key`));
  const env = (pod.containers[0] as unknown as { env: Array<{ name: string; value?: string }> }).env;
  assert.equal(env.find((e) => e.name === 'KWOKTS_CLIENT_CA_FILE')?.value, `${mount}/ca.crt`);
});

test("kind's etcd is reached from the host: its client port published on loopback at the cluster's etcd port, etcd's CA given to kubeadm read-only", () => {
  const etcd: Component = { ...component('etcd', 0), ports: [{ name: 'https', port: 32790, containerPort: 2379 }] };
  const config = parse(renderKindConfig([component('kube-apiserver', 32766), component('kwok-controller', 32765), etcd], { etcdCa: { cert: '/c/pki/etcd/ca.crt', key: '/c/pki/etcd/ca.key' } })) as { nodes: Array<Record<string, unknown>> };
  assert.deepEqual(config.nodes[0]!['extraPortMappings'], [
    { containerPort: 10247, hostPort: 32765, listenAddress: '127.0.0.1', protocol: 'TCP' },
    { containerPort: 2379, hostPort: 32790, listenAddress: '127.0.0.1', protocol: 'TCP' },
  ]);
  assert.equal(ETCD_CA_NODE_DIR, '/etc/kubernetes/pki/etcd', "where kubeadm looks for etcd's CA");
  assert.deepEqual(config.nodes[0]!['extraMounts'], [
    { hostPath: '/c/pki/etcd/ca.crt', containerPath: '/etc/kubernetes/pki/etcd/ca.crt', readOnly: true },
    { hostPath: '/c/pki/etcd/ca.key', containerPath: '/etc/kubernetes/pki/etcd/ca.key', readOnly: true },
  ]);
});

test("etcd in kind's node: only its client port, mapped to 2379 in the node; no probe (its /health is on the node's loopback), args or mounts", () => {
  const built: Component = {
    ...component('etcd', 0),
    ports: [{ name: 'https', port: 32790 }, { name: 'peer-https', port: 32791 }, { name: 'metrics', port: 32792 }],
    probe: { scheme: 'http', port: 32792, path: '/health', clientCert: false },
    args: ['--name=node0'],
    mounts: [{ path: '/c/etcd', readOnly: false }],
  };
  const inNode = inClusterNode(built);
  assert.deepEqual(inNode.ports, [{ name: 'https', port: 32790, containerPort: 2379 }]);
  assert.equal(inNode.probe, undefined);
  assert.deepEqual(inNode.mounts, []);
  assert.deepEqual(inNode.args, [], "kind runs kubeadm's, not ours");
  assert.equal(inNode.name, 'etcd');
});

test("metrics-server in kind's node: no port published, no probe (the apiserver reaches it); the apiserver and the controller keep their shape", () => {
  const metricsServer: Component = { ...component('metrics-server', 32795), args: ['--secure-port=4443'], image: 'ms:1' };
  const inNode = inClusterNode(metricsServer);
  assert.deepEqual(inNode.ports, []);
  assert.equal(inNode.probe, undefined);
  assert.deepEqual(inNode.args, []);
  assert.equal(inNode.image, 'ms:1', 'its image is what the runtime loads into the node');
  for (const name of ['kube-apiserver', 'kwok-controller'] as const) {
    const c = component(name, 1);
    assert.equal(inClusterNode(c), c);
  }
});

test('the metrics-server manifests for kind: the image given, on the node network, the APIService through a Service selecting its pod', () => {
  const text = fillImage(readFileSync(templatePath('kind', 'metrics-server.yaml'), 'utf8'), '${METRICS_SERVER_IMAGE}', 'registry.k8s.io/metrics-server/metrics-server:v0.8.1');
  assert.ok(!text.includes('${'), 'no placeholder left');
  const docs = parseAllDocuments(text).map((d) => d.toJSON() as Record<string, any>);
  const deployment = docs.find((d) => d['kind'] === 'Deployment')!;
  const pod = deployment['spec']['template']['spec'];
  assert.equal(pod['containers'][0]['image'], 'registry.k8s.io/metrics-server/metrics-server:v0.8.1');
  assert.equal(pod['hostNetwork'], true);
  const port = Number(/--secure-port=(\d+)/.exec(pod['containers'][0]['args'].join(' '))![1]);
  const service = docs.find((d) => d['kind'] === 'Service')!;
  for (const [k, v] of Object.entries(service['spec']['selector'] as Record<string, string>)) assert.equal(deployment['spec']['template']['metadata']['labels'][k], v, 'the Service selects its pod');
  assert.equal(service['spec']['ports'][0]['targetPort'], port);
  const api = docs.find((d) => d['kind'] === 'APIService')!;
  assert.equal(api['metadata']['name'], 'v1beta1.metrics.k8s.io');
  assert.deepEqual(api['spec']['service'], { name: service['metadata']['name'], namespace: service['metadata']['namespace'], port: service['spec']['ports'][0]['port'] });
});

test("Prometheus in kind: one job per component, named as kwokctl's, where each serves in the node; tokens only where the component authorizes", () => {
  const names = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus'] as const;
  const config = parse(kindPrometheusConfig(names.map((n) => component(n, 1)))) as { scrape_configs: Array<Record<string, any>> };
  const jobs = Object.fromEntries(config.scrape_configs.map((j) => [j['job_name'], j]));
  assert.deepEqual(Object.keys(jobs), [...names]);
  const target = (job: string): string => jobs[job]['static_configs'][0]['targets'][0];
  assert.equal(target('etcd'), '127.0.0.1:2381', "kubeadm's etcd metrics listener");
  assert.equal(jobs['etcd']['scheme'], 'http');
  assert.equal(target('kube-apiserver'), '127.0.0.1:6443');
  assert.deepEqual(jobs['kube-apiserver']['tls_config'], { ca_file: '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt' });
  assert.equal(target('kube-controller-manager'), '127.0.0.1:10257');
  assert.equal(target('kube-scheduler'), '127.0.0.1:10259');
  assert.equal(target('prometheus'), '127.0.0.1:9090');
  for (const job of ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server']) {
    assert.deepEqual(jobs[job]['authorization'], { credentials_file: '/var/run/secrets/kubernetes.io/serviceaccount/token' }, job);
  }
  for (const job of ['etcd', 'prometheus']) assert.equal(jobs[job]['authorization'], undefined, job);
  assert.equal(jobs['kwok-controller']['scheme'], 'https', 'the controller takes a token over HTTPS only');
  const metricsServer = parseAllDocuments(readFileSync(templatePath('kind', 'metrics-server.yaml'), 'utf8')).map((d) => d.toJSON() as Record<string, any>).find((d) => d['kind'] === 'Deployment')!;
  assert.ok(metricsServer['spec']['template']['spec']['containers'][0]['args'].includes(`--secure-port=${target('metrics-server').split(':')[1]}`), "metrics-server's job asks the port its manifest gives it");
  const onlyTwo = parse(kindPrometheusConfig([component('etcd', 1), component('kube-apiserver', 2)])) as { scrape_configs: Array<{ job_name: string }> };
  assert.deepEqual(onlyTwo.scrape_configs.map((j) => j.job_name), ['etcd', 'kube-apiserver'], 'only the components the cluster has');
});

test("Prometheus in kind's node: its port published on the host's loopback at the cluster's Prometheus port, its /-/ready probe kept (it asks that port)", () => {
  const built: Component = { ...component('prometheus', 9091), ports: [{ name: 'http', port: 9091 }], files: [{ path: '/c/prometheus.yaml', content: 'x' }] };
  const inNode = inClusterNode(built);
  assert.deepEqual(inNode.ports, [{ name: 'http', port: 9091, containerPort: 9090 }]);
  assert.deepEqual(inNode.probe, built.probe);
  assert.equal(inNode.files, undefined, "the container runtimes' configuration is not kind's");
  const config = parse(renderKindConfig([component('kube-apiserver', 1), inNode])) as { nodes: Array<Record<string, unknown>> };
  assert.deepEqual(config.nodes[0]!['extraPortMappings'], [{ containerPort: 9090, hostPort: 9091, listenAddress: '127.0.0.1', protocol: 'TCP' }]);
  const text = fillImage(readFileSync(templatePath('kind', 'prometheus.yaml'), 'utf8'), '${PROMETHEUS_IMAGE}', 'prom:1');
  const deployment = parseAllDocuments(text).map((d) => d.toJSON() as Record<string, any>).find((d) => d['kind'] === 'Deployment')!;
  const pod = deployment['spec']['template']['spec'];
  assert.equal(pod['hostNetwork'], true);
  assert.ok(pod['containers'][0]['args'].includes('--web.listen-address=0.0.0.0:9090'));
  assert.equal(pod['containers'][0]['image'], 'prom:1');
});

test("kind's apiserver traces to jaeger in the node: the tracing configuration mounted, and kubeadm's ClusterConfiguration patched in the API kind writes for the node's version", () => {
  assert.equal(kubeadmApiOf('docker.io/kindest/node:v1.36.1'), 'v1beta4');
  assert.equal(kubeadmApiOf('kwokts.local/kind-node:v1.37.0'), 'v1beta4');
  assert.equal(kubeadmApiOf('docker.io/kindest/node:v1.35.2'), 'v1beta3');
  assert.equal(kubeadmApiOf('docker.io/kindest/node:v1.31.0'), 'v1beta3');
  assert.equal(kubeadmApiOf('my-node-image'), 'v1beta4', 'the latest when the tag says nothing');
  for (const api of ['v1beta3', 'v1beta4'] as const) {
    const config = parse(renderKindConfig([component('kube-apiserver', 1)], { apiserverTracing: { configFile: '/c/apiserver-tracing-config.yaml', kubeadmApi: api } })) as { nodes: Array<Record<string, unknown>>; kubeadmConfigPatchesJSON6902: Array<{ version: string; kind: string; patch: string }> };
    assert.deepEqual(config.nodes[0]!['extraMounts'], [{ hostPath: '/c/apiserver-tracing-config.yaml', containerPath: APISERVER_TRACING_NODE_PATH, readOnly: true }]);
    const [patch] = config.kubeadmConfigPatchesJSON6902;
    assert.equal(patch!.version, api);
    assert.equal(patch!.kind, 'ClusterConfiguration');
    const ops = parse(patch!.patch) as Array<{ op: string; path: string; value: unknown }>;
    assert.deepEqual(ops[0], api === 'v1beta4'
      ? { op: 'add', path: '/apiServer/extraArgs/-', value: { name: 'tracing-config-file', value: APISERVER_TRACING_NODE_PATH } }
      : { op: 'add', path: '/apiServer/extraArgs/tracing-config-file', value: APISERVER_TRACING_NODE_PATH });
    assert.deepEqual(ops[1], { op: 'add', path: '/apiServer/extraVolumes', value: [{ name: 'tracing-config', hostPath: APISERVER_TRACING_NODE_PATH, mountPath: APISERVER_TRACING_NODE_PATH, readOnly: true, pathType: 'File' }] });
  }
  const tracing = parse(kindApiserverTracingConfig()) as Record<string, unknown>;
  const jaeger = parseAllDocuments(readFileSync(templatePath('kind', 'jaeger.yaml'), 'utf8'))[0]!.toJSON() as Record<string, any>;
  const args: string[] = jaeger['spec']['template']['spec']['containers'][0]['args'];
  assert.ok(args.includes(`--collector.otlp.grpc.host-port=${String(tracing['endpoint'])}`), 'the apiserver sends where jaeger listens in the node');
  assert.equal(jaeger['spec']['template']['spec']['hostNetwork'], true);
  assert.equal((parse(renderKindConfig([component('kube-apiserver', 1)])) as Record<string, unknown>)['kubeadmConfigPatchesJSON6902'], undefined, 'no patch without jaeger');
});

test("every Deployment of templates/kind labels its pods app=<its name>: the kind runtime finds a paused component's pods by it", () => {
  for (const file of ['kwok-controller.yaml', 'metrics-server.yaml', 'prometheus.yaml', 'jaeger.yaml']) {
    const deployment = parseAllDocuments(readFileSync(templatePath('kind', file), 'utf8')).map((d) => d.toJSON() as Record<string, any>).find((d) => d['kind'] === 'Deployment')!;
    const name: string = deployment['metadata']['name'];
    assert.equal(`${name}.yaml`, file);
    assert.equal(deployment['spec']['template']['metadata']['labels']['app'], name, file);
  }
});

test("etcdutl's member flags for kind's etcd come from kubeadm's manifest", () => {
  const manifest = `apiVersion: v1
kind: Pod
metadata: {name: etcd, namespace: kube-system}
spec:
  containers:
  - name: etcd
    command:
    - etcd
    - --advertise-client-urls=https://172.18.0.2:2379
    - --data-dir=/var/lib/etcd
    - --initial-advertise-peer-urls=https://172.18.0.2:2380
    - --initial-cluster=kwok-x-control-plane=https://172.18.0.2:2380
    - --name=kwok-x-control-plane
`;
  assert.deepEqual(etcdMemberArgs(manifest), ['--initial-advertise-peer-urls=https://172.18.0.2:2380', '--initial-cluster=kwok-x-control-plane=https://172.18.0.2:2380', '--name=kwok-x-control-plane']);
  assert.throws(() => etcdMemberArgs('kind: Pod\nspec: {containers: [{name: etcd, command: [etcd]}]}\n'), /names no member/);
});
