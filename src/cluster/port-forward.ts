/**
 * `port-forward COMPONENT LOCAL:PORT`, kwokctl's: a host port tunnelled to one of a component's
 * ports until interrupted. PORT is a number or the name of a port the component declares (its
 * record in kwok.yaml). The runtime says where that port is (PortEndpoint); an address on the
 * host gets an in-process TCP relay, a pod in a kind cluster gets `kubectl port-forward`.
 * Either way the effect goes through the Executor, so --dry-run prints its command line
 * (`socat …` for the relay, which does the same) and starts nothing.
 */
import { basename } from 'node:path';
import { loadRuntime } from '../../runtimes/load.js';
import type { PortEndpoint, Runtime } from '../../runtimes/runtime.js';
import type { Component, ComponentPort } from '../components/index.js';
import type { Executor } from '../exec/executor.js';
import { loadExeca } from '../exec/load-execa.js';
import { ExternalCommandError, PreflightError, UsageError } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { readContext } from './logs.js';
import type { LoadedCluster } from './record.js';
import { checkCanListen, runTcpProxy, type TcpAddress } from './tcp-proxy.js';

export interface PortMapping {
  /** 0: any free port (an empty LOCAL means the same, as in kubectl). */
  localPort: number;
  /** A port number or a port name, as given. */
  remote: string;
}

export interface PortForwardRequest {
  component: string;
  /** LOCAL:PORT as typed. */
  mapping: string;
  /** Where the local side listens; loopback unless the user asks otherwise. */
  address: string;
}

export interface PortForwardPlan {
  cluster: string;
  component: Component;
  /** The port as the user named it (`https`, `6443`), for messages. */
  remote: string;
  listen: TcpAddress;
  endpoint: PortEndpoint;
  /** kubectl and the cluster's kubeconfig, for a pod endpoint. */
  kubectl: string;
  kubeconfig: string;
  /** The component's state when it is not running: connections fail until it runs. */
  notRunning?: string;
}

export interface PortForwardContext {
  executor: Executor;
  logger: Logger;
  /** Ends the forward (SIGINT/SIGTERM): the command then returns normally, as kwokctl's does. */
  signal: AbortSignal;
  /** The "Forwarding from …" line, once the local port listens. */
  print: (line: string) => void;
}

const MAPPING_HINT = 'write LOCAL_PORT:PORT, e.g. 8443:https or 8443:6443 (PORT: a number or a port name of the component)';

/** LOCAL:PORT; LOCAL may be empty or 0 for a free port, PORT a number or a name. */
export function parsePortMapping(text: string): PortMapping {
  const parts = text.split(':');
  if (parts.length !== 2 || parts[1] === '') throw new UsageError(`invalid port mapping ${JSON.stringify(text)}`, { hint: MAPPING_HINT });
  const [local, remote] = parts as [string, string];
  const localPort = local === '' ? 0 : parsePortNumber(local);
  if (localPort === undefined || localPort > 65535) {
    throw new UsageError(`invalid local port ${JSON.stringify(local)} in ${JSON.stringify(text)}: a number from 0 to 65535`, { hint: `${MAPPING_HINT}; 0 picks a free port` });
  }
  if (/^\d+$/.test(remote)) {
    const port = parsePortNumber(remote);
    if (port === undefined || port < 1 || port > 65535) throw new UsageError(`invalid port ${JSON.stringify(remote)} in ${JSON.stringify(text)}: a port number is 1 to 65535`, { hint: MAPPING_HINT });
  }
  return { localPort, remote };
}

function parsePortNumber(text: string): number | undefined {
  return /^\d{1,6}$/.test(text) ? Number(text) : undefined;
}

/**
 * A port name must be one the component declares. A number is one of its ports when it matches
 * where the port is published or where the component listens (a container's own port, kwokctl's
 * numbers); any other number is passed on as it is, for the runtime to reach or refuse.
 */
export function resolvePort(component: Component, remote: string): ComponentPort | number {
  if (/^\d+$/.test(remote)) {
    const n = Number(remote);
    return component.ports.find((p) => p.port === n) ?? component.ports.find((p) => p.containerPort === n) ?? n;
  }
  const named = component.ports.find((p) => p.name === remote);
  if (!named) {
    throw new UsageError(`component ${component.name} has no port named ${JSON.stringify(remote)}`, {
      hint: component.ports.length > 0 ? `its ports: ${describePorts(component)}; or give a port number` : `${component.name} declares no ports; give a port number`,
    });
  }
  return named;
}

function describePorts(component: Component): string {
  return component.ports.map((p) => `${p.name} (${p.containerPort ?? p.port})`).join(', ');
}

function findComponent(cluster: LoadedCluster, name: string): Component {
  const found = cluster.record.components.find((c) => c.name === name);
  if (!found) {
    throw new UsageError(`cluster ${cluster.record.name} has no component ${JSON.stringify(name)}`, {
      hint: `one of: ${cluster.record.components.map((c) => c.name).join(', ')}`,
    });
  }
  return found;
}

/** Everything decided and probed before anything listens: bad input fails here, with nothing started. */
export async function planPortForward(cluster: LoadedCluster, request: PortForwardRequest, given?: Runtime): Promise<PortForwardPlan> {
  const runtime = given ?? (await loadRuntime(cluster.record.runtime));
  const mapping = parsePortMapping(request.mapping);
  const component = findComponent(cluster, request.component);
  const ctx = readContext(cluster);
  const endpoint = runtime.endpoint(component, resolvePort(component, mapping.remote), ctx);
  const listen = { host: request.address, port: mapping.localPort };
  await checkCanListen(listen);
  const plan: PortForwardPlan = {
    cluster: cluster.record.name,
    component,
    remote: mapping.remote,
    listen,
    endpoint,
    kubectl: cluster.record.programs.kubectl ?? 'kubectl',
    kubeconfig: cluster.paths.kubeconfig,
  };
  try {
    const [status] = await runtime.status([component], ctx);
    if (status && status.state !== 'running') plan.notRunning = status.state;
  } catch {
    // The state is only for a warning; an engine that cannot say does not stop the forward.
  }
  return plan;
}

/** Forward until the signal aborts; resolves then (kwokctl exits 0 on Ctrl-C). */
export async function runPortForward(plan: PortForwardPlan, ctx: PortForwardContext): Promise<void> {
  const { component, endpoint, listen } = plan;
  if (plan.notRunning) {
    ctx.logger.warn(`${component.name} is ${plan.notRunning}: connections will fail until it runs (\`kwokts --name ${plan.cluster} start cluster\`)`);
  }
  if (endpoint.kind === 'address') {
    const target = { host: endpoint.host, port: endpoint.port };
    let warned = false;
    await ctx.executor.call({
      argv: ['socat', `TCP-LISTEN:${listen.port},bind=${listen.host},reuseaddr,fork`, `TCP:${target.host}:${target.port}`],
      dryRunResult: undefined,
      perform: () =>
        runTcpProxy({
          listen,
          target,
          signal: ctx.signal,
          onListening: (bound) => ctx.print(`Forwarding from ${bound.host}:${bound.port} -> ${target.host}:${target.port} (${component.name} ${plan.remote})`),
          onConnectionError: (error) => {
            // One hint is enough; a client retrying a dead component would repeat it per attempt.
            ctx.logger.warn(`connection to ${component.name} (${target.host}:${target.port}) failed: ${error.message}`);
            if (!warned) ctx.logger.warn(`is ${component.name} running? see \`kwokts --name ${plan.cluster} get components -o wide\``);
            warned = true;
          },
        }),
    });
    return;
  }
  const args = [
    `--kubeconfig=${plan.kubeconfig}`,
    'port-forward',
    `--namespace=${endpoint.namespace}`,
    `--address=${listen.host}`,
    endpoint.target,
    `${listen.port === 0 ? '' : listen.port}:${endpoint.port}`,
  ];
  await ctx.executor.call({ argv: [basename(plan.kubectl), ...args], dryRunResult: undefined, perform: () => runKubectlForward(plan.kubectl, args, ctx.signal) });
}

/** kubectl prints its own "Forwarding from" lines; it runs until the signal stops it. */
async function runKubectlForward(kubectl: string, args: string[], signal: AbortSignal): Promise<void> {
  const execa = await loadExeca();
  const result = await execa(kubectl, args, { stdin: 'ignore', stdout: 'inherit', stderr: 'inherit', cancelSignal: signal, reject: false });
  if (signal.aborted) return;
  if ((result as { code?: string }).code === 'ENOENT') {
    throw new PreflightError(`${kubectl} is not installed`, { hint: 'install kubectl or pass --kubectl-binary when creating the cluster' });
  }
  throw new ExternalCommandError(`kubectl port-forward ended (exit code ${result.exitCode ?? 'none'}); its output is above`, [kubectl, ...args], '', {
    hint: 'is the kind cluster running? `kwokts get components -o wide`',
  });
}
