/**
 * A Docker-compatible Engine API (dockerd, or podman's compat service) through dockerode.
 */
import type Docker from 'dockerode';
import type { Writable } from 'node:stream';
import { NotFoundError, PreflightError } from '../../src/util/errors.js';
import type { ContainerEngine, ContainerState, NetworkState, PullProgress } from './engine.js';
import type { ContainerOp, ContainerSpec } from './operations.js';
import { describeEndpoint, type ApiEndpoint } from './dialect.js';
import { ensureExtraCaTrust } from '../../src/util/extra-ca-certs.js';

interface HttpError {
  statusCode?: number;
  message?: string;
}

const statusOf = (error: unknown): number | undefined => (error as HttpError | undefined)?.statusCode;

/** 304 (already in that state) and 404 (already gone) are success for idempotent steps. */
async function tolerate(statuses: number[], action: () => Promise<unknown>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!statuses.includes(statusOf(error) ?? -1)) throw error;
  }
}

export class ApiEngine implements ContainerEngine {
  private constructor(
    readonly endpoint: ApiEndpoint,
    private readonly engineName: string,
    private readonly docker: Docker,
    private readonly libpodApi: boolean,
  ) {}

  /** dockerode (and the ssh/modem stack under it) is loaded here, not at start-up: binary-runtime commands never need it. */
  static async open(endpoint: ApiEndpoint, engineName: string, options: { libpodApi?: boolean } = {}): Promise<ApiEngine> {
    const { default: DockerClient } = await import('dockerode');
    // An engine over TLS (DOCKER_HOST=https://...) is verified against the default roots,
    // NODE_EXTRA_CA_CERTS's among them, as Node itself would.
    if (!('socketPath' in endpoint) && endpoint.protocol === 'https') await ensureExtraCaTrust();
    const docker = new DockerClient('socketPath' in endpoint ? { socketPath: endpoint.socketPath } : { host: endpoint.host, port: endpoint.port, protocol: endpoint.protocol });
    return new ApiEngine(endpoint, engineName, docker, options.libpodApi ?? false);
  }

  async ping(): Promise<void> {
    try {
      await this.docker.ping();
    } catch (error) {
      throw new PreflightError(`${this.engineName} does not answer at ${describeEndpoint(this.endpoint)}: ${(error as Error).message}`, {
        hint: `start ${this.engineName}, or point ${this.engineName === 'podman' ? 'CONTAINER_HOST' : 'DOCKER_HOST'} at a running one`,
      });
    }
  }

  async apply(op: ContainerOp, progress?: PullProgress): Promise<void> {
    switch (op.op) {
      case 'network-create':
        await this.docker.createNetwork({ Name: op.name, Driver: 'bridge', Labels: op.labels, CheckDuplicate: true });
        return;
      case 'network-rm':
        await tolerate([404], () => this.docker.getNetwork(op.name).remove());
        return;
      case 'pull':
        await this.pull(op.image, progress);
        return;
      case 'create':
        await this.docker.createContainer(createOptions(op.spec));
        return;
      case 'start':
        await tolerate([304], () => this.docker.getContainer(op.name).start());
        return;
      case 'stop':
        await tolerate([304, 404], () => this.docker.getContainer(op.name).stop({ t: op.timeoutSeconds }));
        return;
      case 'rm':
        await tolerate([404], () => this.docker.getContainer(op.name).remove({ force: true, v: true }));
        return;
      case 'volume-rm':
        await tolerate([404], () => this.docker.getVolume(op.name).remove());
        return;
    }
  }

  private async pull(image: string, progress?: PullProgress): Promise<void> {
    const stream = await this.docker.pull(image);
    let last = 0;
    await new Promise<void>((resolve, reject) => {
      this.docker.modem.followProgress(
        stream,
        (error: Error | null, events: Array<{ error?: string }>) => {
          const failed = error?.message ?? events.find((e) => e.error)?.error;
          if (failed) reject(new Error(failed));
          else resolve();
        },
        (event: { status?: string; id?: string; progress?: string }) => {
          // One line a second at most: layer events arrive by the hundred.
          if (!progress || Date.now() - last < 1000) return;
          last = Date.now();
          progress(`pulling ${image}: ${[event.id, event.status, event.progress].filter(Boolean).join(' ')}`);
        },
      );
    });
  }

  async inspectContainer(name: string): Promise<ContainerState | undefined> {
    try {
      const info = await this.docker.getContainer(name).inspect();
      const s = info.State;
      const status = s.Restarting ? 'restarting' : s.Running ? 'running' : s.Status === 'created' || s.Status === 'configured' ? 'created' : s.Status === 'exited' || s.Status === 'stopped' ? 'exited' : 'other';
      return { id: info.Id.slice(0, 12), status, exitCode: s.ExitCode, labels: info.Config.Labels ?? {} };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  async inspectNetwork(name: string): Promise<NetworkState | undefined> {
    try {
      const info = (await this.docker.getNetwork(name).inspect()) as { Name: string; Labels?: Record<string, string> | null };
      const dns = this.libpodApi ? await this.libpodNetworkDns(name) : undefined;
      return { name: info.Name, labels: info.Labels ?? {}, ...(dns === undefined ? {} : { dns }) };
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw error;
    }
  }

  /**
   * libpod's own view of a network (the Docker-compatible one does not say whether it has DNS).
   * libpod routes need a version prefix; every podman since 4.0 serves v4.0.0.
   */
  private libpodNetworkDns(name: string): Promise<boolean | undefined> {
    return new Promise((resolve) => {
      this.docker.modem.dial(
        { path: `/v4.0.0/libpod/networks/${encodeURIComponent(name)}/json`, method: 'GET', statusCodes: { 200: true, 404: 'no such network' }, options: {} },
        (error: unknown, data: unknown) => {
          const enabled = (data as { dns_enabled?: unknown } | undefined)?.dns_enabled;
          resolve(error || typeof enabled !== 'boolean' ? undefined : enabled);
        },
      );
    });
  }

  async imageExists(image: string): Promise<boolean> {
    try {
      await this.docker.getImage(image).inspect();
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw error;
    }
  }

  async rootless(): Promise<boolean> {
    const info = (await this.docker.info()) as { SecurityOptions?: string[] | null };
    return isRootless(info.SecurityOptions);
  }

  async listByLabel(kind: 'container' | 'network' | 'volume', key: string, value: string): Promise<string[]> {
    const filters = JSON.stringify({ label: [`${key}=${value}`] });
    if (kind === 'container') return (await this.docker.listContainers({ all: true, filters })).map((c) => (c.Names[0] ?? c.Id).replace(/^\//, ''));
    if (kind === 'network') return (await this.docker.listNetworks({ filters })).map((n) => n.Name);
    return ((await this.docker.listVolumes({ filters })).Volumes ?? []).map((v) => v.Name);
  }

  async logs(name: string, out: Writable, options: { follow: boolean; signal?: AbortSignal }): Promise<void> {
    const container = this.docker.getContainer(name);
    try {
      if (!options.follow) {
        const buffer = await container.logs({ stdout: true, stderr: true, follow: false });
        out.write(demux(buffer));
        return;
      }
      const stream = await container.logs({ stdout: true, stderr: true, follow: true });
      await new Promise<void>((resolve) => {
        this.docker.modem.demuxStream(stream, out, out);
        stream.on('end', resolve);
        stream.on('error', () => resolve());
        options.signal?.addEventListener('abort', () => {
          (stream as unknown as { destroy(): void }).destroy();
          resolve();
        }, { once: true });
      });
    } catch (error) {
      if (statusOf(error) === 404) throw new NotFoundError(`container ${name} does not exist`, { hint: 'the component has not been created; start the cluster' });
      throw error;
    }
  }
}

/** docker, podman and nerdctl all list `name=rootless` among `info`'s SecurityOptions when rootless. */
export function isRootless(securityOptions: readonly string[] | null | undefined): boolean {
  return (securityOptions ?? []).some((o) => o.split(',').includes('name=rootless'));
}

/** The Engine API form of `create` (what renderArgs prints for the CLI). */
function createOptions(spec: ContainerSpec): Docker.ContainerCreateOptions {
  const portKey = (port: number): string => `${port}/tcp`;
  return {
    name: spec.name,
    Image: spec.image,
    ...(spec.entrypoint.length > 0 ? { Entrypoint: spec.entrypoint } : {}),
    Cmd: spec.args,
    ...(spec.workDir ? { WorkingDir: spec.workDir } : {}),
    ...(spec.user ? { User: spec.user } : {}),
    Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
    Labels: spec.labels,
    ExposedPorts: Object.fromEntries(spec.ports.map((p) => [portKey(p.containerPort), {}])),
    HostConfig: {
      NetworkMode: spec.network,
      PortBindings: Object.fromEntries(spec.ports.map((p) => [portKey(p.containerPort), [{ HostIp: p.hostIp, HostPort: String(p.hostPort) }]])),
      Binds: spec.mounts.map((m) => `${m.hostPath}:${m.containerPath}${m.readOnly ? ':ro' : ''}`),
      RestartPolicy: { Name: 'unless-stopped' },
    },
    NetworkingConfig: { EndpointsConfig: { [spec.network]: { Aliases: [spec.name] } } },
  };
}

/** A non-TTY container's log is framed: 8-byte headers (stream, 0, 0, 0, big-endian length). */
export function demux(buffer: Buffer): Buffer {
  const parts: Buffer[] = [];
  let offset = 0;
  while (offset + 8 <= buffer.length) {
    const type = buffer[offset];
    if (type !== 0 && type !== 1 && type !== 2) return buffer;
    const size = buffer.readUInt32BE(offset + 4);
    parts.push(buffer.subarray(offset + 8, offset + 8 + size));
    offset += 8 + size;
  }
  return offset === buffer.length ? Buffer.concat(parts) : buffer;
}
