import type { Writable } from 'node:stream';
import type { ContainerEngine, ContainerState, NetworkState } from '../../../../runtimes/container/engine.js';
import type { ContainerOp } from '../../../../runtimes/container/operations.js';

/** An engine in memory: applies operations to its state and records them, for transcripts. */
export class FakeEngine implements ContainerEngine {
  readonly applied: ContainerOp[] = [];
  readonly containers = new Map<string, ContainerState & { network: string }>();
  readonly networks = new Map<string, NetworkState>();
  readonly images = new Set<string>();
  pullFails = false;
  /** Whether the engine says it runs rootless. */
  isRootless = false;
  /** What a created network says about DNS (podman's CNI backend without the dnsname plugin: false). */
  networkDns?: boolean;
  /** An engine-level refusal (a raw error, as dockerode throws) for this operation. */
  refuse?: ContainerOp['op'];

  async ping(): Promise<void> {}

  async apply(op: ContainerOp): Promise<void> {
    this.applied.push(op);
    if (this.refuse === op.op) throw new Error('(HTTP code 500) server error - OCI permission denied\nmore detail');
    switch (op.op) {
      case 'network-create':
        this.networks.set(op.name, { name: op.name, labels: op.labels, ...(this.networkDns === undefined ? {} : { dns: this.networkDns }) });
        return;
      case 'network-rm':
        this.networks.delete(op.name);
        return;
      case 'pull':
        if (this.pullFails) throw new Error('no route to registry');
        this.images.add(op.image);
        return;
      case 'create':
        this.containers.set(op.spec.name, { id: op.spec.name.slice(-12), status: 'created', exitCode: 0, labels: op.spec.labels, network: op.spec.network });
        return;
      case 'start':
        this.containers.get(op.name)!.status = 'running';
        return;
      case 'stop':
        this.containers.get(op.name)!.status = 'exited';
        return;
      case 'rm':
        this.containers.delete(op.name);
        return;
      case 'volume-rm':
        return;
    }
  }

  async inspectContainer(name: string): Promise<ContainerState | undefined> {
    return this.containers.get(name);
  }

  async inspectNetwork(name: string): Promise<NetworkState | undefined> {
    return this.networks.get(name);
  }

  async rootless(): Promise<boolean> {
    return this.isRootless;
  }

  async imageExists(image: string): Promise<boolean> {
    return this.images.has(image);
  }

  async listByLabel(kind: 'container' | 'network' | 'volume', key: string, value: string): Promise<string[]> {
    const source = kind === 'container' ? [...this.containers] : kind === 'network' ? [...this.networks] : [];
    return source.filter(([, v]) => v.labels[key] === value).map(([k]) => k);
  }

  async logs(name: string, out: Writable): Promise<void> {
    out.write(`log of ${name}\n`);
  }
}
