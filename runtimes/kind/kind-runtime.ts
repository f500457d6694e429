/**
 * A real Kubernetes cluster made by kind (`kind create cluster`, docker provider), named
 * kwok-<cluster>, with the kwok controller deployed into it from templates/kind. The control
 * plane is kind's own (kubeadm's static pods: etcd, the apiserver, controller-manager and
 * scheduler); the kwok controller and the extras (metrics-server, Prometheus, jaeger) are
 * Deployments on the control-plane node's network. A component the host cannot probe is ready
 * when its pod is (kind-pods.ts).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { KubeconfigError, readRestConfig, type KubeObject, type TlsMaterial } from '../../src/kube/index.js';
import { runtimeObjectName } from '../../src/naming/naming.js';
import { CONTAINER_PORTS, type Component, type ComponentName, type ComponentPort } from '../../src/components/index.js';
import { NotFoundError, OperationError, PreflightError } from '../../src/util/errors.js';
import { templatePath } from '../../src/util/package-root.js';
import type { ComponentStatus, EtcdDataStore, KubeObjectView, LogOptions, PortEndpoint, Runtime, RuntimeContext, RuntimeInfo } from '../runtime.js';
import { parse } from 'yaml';
import { controllerHostDirs, fillImage, kindApiserverTracingConfig, kubeadmApiOf, renderControllerManifests, renderKindConfig } from './kind-config.js';
import { componentReadiness, DEPLOYED, etcdContainer, isDeployedPod, isMirrorPod, systemPods } from './kind-pods.js';
import { kindPrometheusConfig } from './kind-prometheus.js';
import { ETCD_DATA, ETCD_DATA_ASIDE, killRestartsAtOnce, manifestIn, putEtcdDataBack, setEtcdDataAside, startEtcdAfterSwap, startStaticPod, stopEtcdForSwap, stopStaticPod, STATIC_PODS, type EtcdRestart } from './static-pods.js';
import { loadExeca } from '../../src/exec/load-execa.js';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { defaultCacheDir } from '../../src/artifacts/sources.js';
import { resolveNodeImage } from '../../src/artifacts/kind.js';

/** kind's provider CLI; kwokctl's kind-podman/kind-nerdctl variants are not supported. */
const PROVIDER_CLI = 'docker';

export class KindRuntime implements Runtime {
  /** Set when this process made the cluster: only then are the controller's manifests applied. */
  private created = false;
  /** Components of ours started before the apiserver, that is before the cluster exists. */
  private readonly early: Component[] = [];
  /** What this process deployed (Prometheus is deployed ahead of its start group). */
  private readonly deployed = new Set<ComponentName>();
  /** The last list of kube-system pods, shared by the status() calls of the next moment. */
  private podsSeen: { at: number; pods: Promise<KubeObject[] | undefined> } | undefined;
  /** Deployments this process scaled to 0 (stop() without the apiserver), for start() to scale back. */
  private readonly scaledDown = new Set<ComponentName>();
  /** How etcdData.replace restarted etcd, for a rollback's putBack to do the same. */
  private etcdSwappedBy: EtcdRestart | undefined;

  info(): RuntimeInfo {
    return { name: 'kind', mode: 'cluster' };
  }

  async check(ctx: RuntimeContext): Promise<void> {
    const kind = kindOf(ctx);
    const execa = await loadExeca();
    const result = await execa(kind, ['version'], { reject: false, timeout: 10_000 });
    if (ctx.executor.dryRun) return;
    if (result.exitCode === 0) {
      // As for containers: a node left by an earlier cluster of this name would be taken for
      // this one's by start(); it is named, never removed.
      const node = nodeName(ctx);
      if ((await nodeState(node)) === undefined) return;
      throw new PreflightError(`${PROVIDER_CLI} still has the kind node ${node} of an earlier cluster named ${ctx.cluster} that kwokts has no record of`, {
        hint: `remove it (\`${kind} delete cluster --name ${runtimeObjectName(ctx.cluster)}\`) or choose another --name`,
      });
    }
    const missing = (result as { code?: string }).code === 'ENOENT';
    throw new PreflightError(missing ? `kind is not installed (looked for ${kind})` : `${kind} version failed: ${String(result.stderr).trim().split('\n').pop() ?? ''}`, {
      hint: 'install Go (kwokts then builds kind itself) or kind v0.32.0 (`go install sigs.k8s.io/kind@v0.32.0`), or pass --kind-binary; kind also needs docker',
    });
  }

  async start(components: readonly Component[], ctx: RuntimeContext): Promise<void> {
    for (const component of components) {
      if (component.name === 'kube-apiserver') {
        await this.ensureCluster(component, ctx);
        // What started before the apiserver (jaeger, which it links to) is deployed now the cluster
        // is there, and Prometheus at once too, as kwokctl's static pod starts with the node: its
        // first scrapes (every 15 s) then happen while the rest starts, not after create returned.
        const early = [...this.early.splice(0), ...(ctx.clusterComponents ?? []).filter((c) => c.name === 'prometheus')];
        if (this.created) for (const c of early) await this.deploy(c, ctx);
      } else if (DEPLOYED.has(component.name) && !this.scaledDown.has(component.name)) {
        // Deployed once, into a cluster this process made (a stopped one keeps its Deployments).
        if (this.created) await this.deploy(component, ctx);
        else this.early.push(component);
      } else {
        await this.startInNode(component, ctx);
      }
    }
  }

  /** What kwokts deploys into the cluster, once, when this process made it (a start of a stopped node finds it there). */
  private async deploy(component: Component, ctx: RuntimeContext): Promise<void> {
    if (this.deployed.has(component.name)) return;
    this.deployed.add(component.name);
    if (component.name === 'kwok-controller') await this.deployController(component, ctx);
    else if (component.name === 'prometheus') await this.deployPrometheus(component, ctx);
    else if (component.name === 'metrics-server') await this.deployManifest(component, 'metrics-server.yaml', '${METRICS_SERVER_IMAGE}', ctx);
    else if (component.name === 'jaeger') await this.deployManifest(component, 'jaeger.yaml', '${JAEGER_IMAGE}', ctx);
  }

  private async ensureCluster(apiserver: Component, ctx: RuntimeContext): Promise<void> {
    const node = nodeName(ctx);
    const state = await nodeState(node);
    if (state === 'running') return;
    if (state !== undefined) {
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['start', node] });
      return;
    }
    const config = join(ctx.paths.root, 'kind.yaml');
    const kindKubeconfig = join(ctx.paths.root, 'kind-kubeconfig.yaml');
    const components = ctx.clusterComponents ?? [apiserver];
    const controllerDirs = controllerHostDirs(components.find((c) => c.name === 'kwok-controller'), ctx.paths.root);
    // With jaeger, kind's apiserver traces to it in the node: its own tracing configuration.
    const tracing = components.some((c) => c.name === 'jaeger') ? join(ctx.paths.root, 'apiserver-tracing-config.yaml') : undefined;
    if (tracing) await ctx.executor.writeFile(tracing, kindApiserverTracingConfig());
    await ctx.executor.writeFile(
      config,
      renderKindConfig(components, {
        cgroupV1: !existsSync('/sys/fs/cgroup/cgroup.controllers'),
        ca: { cert: ctx.paths.caCert, key: ctx.paths.caKey },
        // Clusters made before kind's etcd was reached have no etcd CA key: their etcd stays kind's own.
        ...(existsSync(ctx.paths.etcdCaKey) || ctx.executor.dryRun ? { etcdCa: { cert: ctx.paths.etcdCaCert, key: ctx.paths.etcdCaKey } } : {}),
        controllerDirs,
        controllerTls: { cert: ctx.paths.adminCert, key: ctx.paths.adminKey, ca: ctx.paths.caCert },
        ...(tracing ? { apiserverTracing: { configFile: tracing, kubeadmApi: kubeadmApiOf(apiserver.image ?? '') } } : {}),
      }),
    );
    // kindest/node missing and not pullable: the node image made locally (said in one line).
    const configured = apiserver.image ?? '';
    const image = ctx.executor.dryRun
      ? configured
      : await resolveNodeImage(configured, {
          cacheDir: ctx.cacheDir ?? defaultCacheDir(process.env, homedir()),
          logger: ctx.logger,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
          docker: PROVIDER_CLI,
          onStep: (line) => ctx.logger.info(`  ${line}`),
        });
    await ctx.executor.run({
      command: kindOf(ctx),
      args: ['create', 'cluster', `--name=${runtimeObjectName(ctx.cluster)}`, `--config=${config}`, `--image=${image}`, `--kubeconfig=${kindKubeconfig}`],
    });
    this.created = true;
    await adoptCredentials(kindKubeconfig, ctx);
  }

  /** The controller image is local: load it into the node, then apply the manifests. */
  private async deployController(controller: Component, ctx: RuntimeContext): Promise<void> {
    const image = controller.image ?? '';
    await this.loadImage(image, ctx);
    const template = await readFile(templatePath('kind', 'kwok-controller.yaml'), 'utf8');
    const manifests = join(ctx.paths.root, 'manifests', 'kwok-controller.yaml');
    await ctx.executor.writeFile(manifests, renderControllerManifests(template, image, controllerHostDirs(controller, ctx.paths.root)));
    // The stages travel as the cluster's own kwok.yaml, which the controller reads by kind.
    await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'create', 'configmap', 'kwok-controller-config', `--from-file=kwok.yaml=${ctx.paths.config}`] });
    await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'apply', '-f', manifests] });
  }

  /**
   * A component as a Deployment on the node (templates/kind/<file>), its image loaded as the
   * controller's: metrics-server, jaeger, and Prometheus once its configuration is there.
   */
  private async deployManifest(component: Component, file: string, placeholder: string, ctx: RuntimeContext): Promise<void> {
    const image = component.image ?? '';
    await this.loadImage(image, ctx);
    const template = await readFile(templatePath('kind', file), 'utf8');
    const manifests = join(ctx.paths.root, 'manifests', file);
    await ctx.executor.writeFile(manifests, fillImage(template, placeholder, image));
    await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'apply', '-f', manifests] });
  }

  /**
   * Prometheus as a Deployment on the node (templates/kind/prometheus.yaml), scraping the cluster's
   * components where they serve in the node (kind-prometheus.ts), its configuration a ConfigMap.
   */
  private async deployPrometheus(prometheus: Component, ctx: RuntimeContext): Promise<void> {
    const config = join(ctx.paths.root, 'prometheus.yaml');
    await ctx.executor.writeFile(config, kindPrometheusConfig(ctx.clusterComponents ?? [prometheus]));
    await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'create', 'configmap', 'prometheus-config', `--from-file=prometheus.yaml=${config}`] });
    await this.deployManifest(prometheus, 'prometheus.yaml', '${PROMETHEUS_IMAGE}', ctx);
  }

  /** An image of the host's engine into the node's containerd: kind cannot pull what the host made. */
  private async loadImage(image: string, ctx: RuntimeContext): Promise<void> {
    await ctx.executor.run({ command: kindOf(ctx), args: ['load', 'docker-image', image, `--name=${runtimeObjectName(ctx.cluster)}`] });
  }

  /**
   * With the apiserver among them, the node container stops (the whole cluster). Without it
   * (an etcd restore stops etcd; a YAML restore pauses the controllers), each stops on its own
   * in the running node, as kwokctl's kind runtime stops one: a static pod by moving its manifest
   * out of the kubelet's directory (and waiting for its process to end), what kwokts deployed by
   * scaling its Deployment to 0 (and waiting for its pod to go). start() undoes either.
   */
  async stop(components: readonly Component[], ctx: RuntimeContext): Promise<void> {
    const node = nodeName(ctx);
    const running = (await nodeState(node)) === 'running' || ctx.executor.dryRun;
    if (!running) return;
    if (components.some((c) => c.name === 'kube-apiserver')) {
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['stop', node] });
      return;
    }
    // Deployments first: their pods are deleted by kube-controller-manager, which may be among the stopped.
    const ordered = [...components.filter((c) => DEPLOYED.has(c.name)), ...components.filter((c) => !DEPLOYED.has(c.name))];
    for (const { name } of ordered) {
      if (STATIC_PODS.has(name)) {
        await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', stopStaticPod(name)] });
      } else if (DEPLOYED.has(name)) {
        await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'scale', `deployment/${name}`, '--replicas=0'] });
        this.scaledDown.add(name);
        if (!ctx.executor.dryRun) await podsGone(name, ctx);
      }
    }
  }

  /** A component stopped alone in the running node (stop() without the apiserver) runs again. */
  private async startInNode(component: Component, ctx: RuntimeContext): Promise<void> {
    const node = nodeName(ctx);
    if (STATIC_PODS.has(component.name)) {
      if ((await nodeState(node)) !== 'running') return;
      // The same manifest back, unchanged (manifestAside says why); etcd waited for on its health:
      // the restore that stopped it talks to it next.
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', startStaticPod(component.name)] });
    } else if (this.scaledDown.delete(component.name)) {
      await ctx.executor.run({ command: kubectlOf(ctx), args: [...kubectlArgs(ctx), 'scale', `deployment/${component.name}`, '--replicas=1'] });
    }
  }

  /**
   * Our Deployments' pods: a YAML restore that created the saved one would run a second controller
   * (or Prometheus, ...). And the static pods' mirrors, the kubelet's: the restore pauses the
   * controller-manager and scheduler by taking their manifests away, the kubelet then deletes their
   * mirror pods, and a create racing that deletion failed a CI run ("exists", then gone).
   */
  ownsObject(object: KubeObjectView): boolean {
    return isDeployedPod(object) || isMirrorPod(object);
  }

  /**
   * etcd's data is kubeadm's, in the node at /var/lib/etcd: swapped there while etcd is frozen (and
   * then killed) or stopped through its manifest, as etcdRestartWay chooses, the data it replaces
   * kept aside until the restore is done. The member flags come from etcd's manifest, so the
   * restored member is the one kubeadm's etcd runs as.
   */
  readonly etcdData: EtcdDataStore = {
    memberArgs: async (ctx) => {
      if (ctx.executor.dryRun) return [];
      const execa = await loadExeca();
      const manifest = await execa(PROVIDER_CLI, ['exec', nodeName(ctx), 'cat', manifestIn('etcd')], { reject: false, timeout: 30_000 });
      if (manifest.exitCode !== 0) throw new OperationError(`cannot read etcd's manifest in ${nodeName(ctx)}: ${String(manifest.stderr).trim()}`, { hint: 'is the kind cluster running? `kwokts start cluster`' });
      return etcdMemberArgs(String(manifest.stdout));
    },
    replace: async (from, ctx) => {
      const node = nodeName(ctx);
      const way = await etcdRestartWay(ctx);
      this.etcdSwappedBy = way;
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', `${stopEtcdForSwap(way)} && ${setEtcdDataAside()}`] });
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['cp', `${from}/.`, `${node}:${ETCD_DATA}`] });
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', startEtcdAfterSwap(way)] });
    },
    putBack: async (ctx) => {
      const node = nodeName(ctx);
      // The way the restore took: a frozen etcd is killed again, not stopped through the kubelet
      // (which would wait a grace period on it), and the apiserver may not answer to choose anew.
      const way = this.etcdSwappedBy ?? (await etcdRestartWay(ctx));
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', `${stopEtcdForSwap(way, 'rollback')} && ${putEtcdDataBack()}`] });
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', node, 'sh', '-c', startEtcdAfterSwap(way)] });
    },
    dropKept: async (ctx) => {
      await ctx.executor.run({ command: PROVIDER_CLI, args: ['exec', nodeName(ctx), 'rm', '-rf', ETCD_DATA_ASIDE] });
    },
  };

  /**
   * Running while the node runs; ready when the component's pod is (kwokctl's kind runtime asks the
   * same). It decides for the components in the node that the host cannot probe (etcd, kcm, the
   * scheduler, metrics-server): a static pod or a Deployment's pod starts some seconds after the
   * node, so `create` returns only once each is there. A probed one is judged by its probe, a
   * live answer, where the pod's status lags by seconds (after an etcd restore, the apiserver's).
   */
  async status(components: readonly Component[], ctx: RuntimeContext): Promise<ComponentStatus[]> {
    const node = nodeName(ctx);
    // An apiserver that answers says the node runs, without a docker call (this is asked every
    // few hundred milliseconds while a cluster starts).
    const pods = await this.recentSystemPods(ctx);
    if (pods === undefined && (await nodeState(node)) !== 'running') return components.map((c) => ({ name: c.name, state: 'stopped' }));
    const ready = componentReadiness(pods ?? [], components.map((c) => c.name), node);
    return components.map((c) => ({ name: c.name, state: 'running', ready: ready.get(c.name) ?? false }));
  }

  /**
   * A wait asks status() of each component every 100 ms, one at a time: a list at most every
   * quarter second serves them all (a list is a TLS handshake and a request to the apiserver).
   */
  private recentSystemPods(ctx: RuntimeContext): Promise<KubeObject[] | undefined> {
    const now = Date.now();
    if (!this.podsSeen || now - this.podsSeen.at > PODS_SEEN_FOR_MS) this.podsSeen = { at: now, pods: systemPods(ctx) };
    return this.podsSeen.pods;
  }

  async logs(component: ComponentName, ctx: RuntimeContext, out: Writable, options: LogOptions): Promise<void> {
    const target = podTarget(component, ctx);
    const execa = await loadExeca();
    const child = execa(kubectlOf(ctx), [`--kubeconfig=${ctx.paths.kubeconfig}`, 'logs', '-n', 'kube-system', ...(options.follow ? ['-f'] : []), target], {
      reject: false,
      all: true,
      ...(options.signal ? { cancelSignal: options.signal } : {}),
    });
    child.stdout?.pipe(out, { end: false });
    const result = await child;
    if (result.exitCode !== 0 && !options.signal?.aborted) throw new NotFoundError(`no log for ${component}: ${String(result.stderr).trim()}`, { hint: 'is the kind cluster running? `kwokts start cluster`' });
  }

  /**
   * The component's pod, at the port it listens on in the node: a declared port is published on
   * the host at another number (kind.yaml), so the in-node one is used; a bare number is taken
   * as an in-node port, as kwokctl's kind runtime does (it relays to 127.0.0.1:<port> in the node).
   */
  endpoint(component: Component, port: ComponentPort | number, ctx: RuntimeContext): PortEndpoint {
    const inNode = typeof port === 'number' ? port : (IN_NODE_PORTS[component.name] ?? port.containerPort ?? port.port);
    return { kind: 'pod', namespace: 'kube-system', target: podTarget(component.name, ctx), port: inNode };
  }

  async remove(ctx: RuntimeContext): Promise<void> {
    // Idempotent: kind deletes nothing (and succeeds) when the cluster is not there.
    await ctx.executor.run({ command: kindOf(ctx), args: ['delete', 'cluster', `--name=${runtimeObjectName(ctx.cluster)}`] });
    await removeIdleKindNetwork(ctx);
  }
}

/**
 * How etcd restarts on swapped data in this node now (static-pods.ts's EtcdRestart): killed, when
 * the kubelet would start it again at once; else through its manifest.
 */
async function etcdRestartWay(ctx: RuntimeContext): Promise<EtcdRestart> {
  if (ctx.executor.dryRun) {
    await ctx.executor.note('etcd is killed for the kubelet to restart it, unless the kubelet restarted it in the last 5.5 minutes: then it is stopped and started through its manifest');
    return 'kill';
  }
  const way = killRestartsAtOnce(etcdContainer(await systemPods(ctx), nodeName(ctx)), Date.now()) ? 'kill' : 'manifest';
  ctx.logger.debug(`etcd restarts on the swapped data by ${way === 'kill' ? 'a kill (the kubelet restarts it at once)' : 'its manifest (the kubelet restarted it lately, and would hold a killed one back)'}`);
  return way;
}

const nodeName = (ctx: RuntimeContext): string => `${runtimeObjectName(ctx.cluster)}-control-plane`;
const PODS_SEEN_FOR_MS = 250;
/** kubeadm's static pods are named <component>-<node>; ours are Deployments. */
const podTarget = (component: ComponentName, ctx: RuntimeContext): string => (DEPLOYED.has(component) ? `deployment/${component}` : `pod/${component}-${nodeName(ctx)}`);

/** Until no pod of the Deployment (label app=<name>, as templates/kind has them) is left, or two minutes passed. */
async function podsGone(name: ComponentName, ctx: RuntimeContext): Promise<void> {
  const execa = await loadExeca();
  const deadline = Date.now() + 120_000;
  for (;;) {
    const pods = await execa(kubectlOf(ctx), [...kubectlArgs(ctx), 'get', 'pods', '-l', `app=${name}`, '-o', 'name'], { reject: false, timeout: 30_000 });
    if (pods.exitCode === 0 && String(pods.stdout).trim() === '') return;
    if (Date.now() >= deadline) throw new OperationError(`${name}'s pod did not go within two minutes of scaling it to 0`, { hint: `look at \`kwokts kubectl -n kube-system get pods -l app=${name}\`` });
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** etcdutl's member flags from kubeadm's etcd manifest: the --name and initial cluster it runs with. */
export function etcdMemberArgs(manifest: string): string[] {
  const pod = parse(manifest) as { spec?: { containers?: Array<{ command?: string[] }> } } | null;
  const command = pod?.spec?.containers?.[0]?.command ?? [];
  const member = command.filter((a) => /^--(name|initial-cluster|initial-advertise-peer-urls|initial-cluster-token)=/.test(a));
  if (!member.some((a) => a.startsWith('--name='))) throw new OperationError("etcd's manifest in the kind node names no member (--name)", { hint: 'is this a cluster kind made?' });
  return member;
}

const kubectlArgs = (ctx: RuntimeContext): string[] => [`--kubeconfig=${ctx.paths.kubeconfig}`, '--namespace=kube-system'];
/** Where kind's apiserver (kubeadm's default) and our controller (templates/kind) listen in the node. */
const IN_NODE_PORTS: Partial<Record<ComponentName, number>> = { 'kube-apiserver': 6443, 'kwok-controller': CONTAINER_PORTS.kwokController };
const kindOf = (ctx: RuntimeContext): string => ctx.programs.get('kind') ?? 'kind';
const kubectlOf = (ctx: RuntimeContext): string => ctx.programs.get('kubectl') ?? 'kubectl';

/** The node container's state through the provider's CLI; undefined when it does not exist (or no engine answers). */
async function nodeState(node: string): Promise<string | undefined> {
  const execa = await loadExeca();
  const result = await execa(PROVIDER_CLI, ['inspect', '--format', '{{.State.Status}}', node], { reject: false, timeout: 10_000 });
  return result.exitCode === 0 ? String(result.stdout).trim() : undefined;
}

/**
 * kind makes one docker network, `kind`, for all its clusters and never removes it. When the last
 * container has left it, it goes too, so a deleted cluster leaves nothing behind (docker refuses
 * to remove a network that still has containers, so another kind cluster's network stays).
 */
async function removeIdleKindNetwork(ctx: RuntimeContext): Promise<void> {
  if (ctx.executor.dryRun) return;
  const execa = await loadExeca();
  const inspect = await execa(PROVIDER_CLI, ['network', 'inspect', '--format', '{{len .Containers}}', KIND_NETWORK], { reject: false, timeout: 10_000 });
  if (inspect.exitCode !== 0 || String(inspect.stdout).trim() !== '0') return;
  await execa(PROVIDER_CLI, ['network', 'rm', KIND_NETWORK], { reject: false, timeout: 30_000 });
}
const KIND_NETWORK = 'kind';

/**
 * kind's admin credentials (signed by the cluster's CA, which kind.yaml gave kubeadm) and its copy
 * of the CA replace the cluster's pki files, so the cluster's kubeconfig, the user's context and
 * the readiness probes (which all name those files) work unchanged.
 */
async function adoptCredentials(kindKubeconfig: string, ctx: RuntimeContext): Promise<void> {
  if (ctx.executor.dryRun) {
    await ctx.executor.note(`Use the CA and admin credentials of ${kindKubeconfig} as ${ctx.paths.pki}/{ca.crt,admin.crt,admin.key}`);
    return;
  }
  const hint = 'look at `kind get kubeconfig --name kwok-<name>`';
  let tls: TlsMaterial;
  try {
    // The one kubeconfig reader (src/kube): kind's file names its cluster as the current context.
    ({ tls } = readRestConfig(kindKubeconfig));
  } catch (error) {
    if (error instanceof KubeconfigError) throw new OperationError(`kind wrote an unreadable kubeconfig: ${error.message}`, { hint, cause: error });
    throw error;
  }
  const { ca, cert, key } = tls;
  if (!ca || !cert || !key) throw new OperationError(`kind wrote no credentials to ${kindKubeconfig}`, { hint });
  await ctx.executor.writeFile(ctx.paths.caCert, ca.toString('utf8'), { mode: 0o644 });
  await ctx.executor.writeFile(ctx.paths.adminCert, cert.toString('utf8'), { mode: 0o644 });
  await ctx.executor.writeFile(ctx.paths.adminKey, key.toString('utf8'), { mode: 0o600 });
}
