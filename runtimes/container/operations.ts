/**
 * Everything a container runtime changes, as data: each operation has one command-line form
 * (kwokctl's, for docker, podman and nerdctl alike), printed by --dry-run and run as it is by a
 * CLI engine; an API engine performs the same operation through the engine's API.
 */
export interface PublishedPort {
  /** Always a loopback address: nothing of a cluster is reachable from other machines. */
  hostIp: string;
  hostPort: number;
  containerPort: number;
}

export interface BindMount {
  hostPath: string;
  containerPath: string;
  readOnly: boolean;
}

/** One component's container, fully decided. */
export interface ContainerSpec {
  name: string;
  image: string;
  /** Replaces the image's entrypoint; empty keeps it. */
  entrypoint: string[];
  args: string[];
  env: Record<string, string>;
  network: string;
  labels: Record<string, string>;
  ports: PublishedPort[];
  mounts: BindMount[];
  /** Containers started before this one (docker `--link`, podman `--requires`). */
  links: string[];
  /** Working directory inside the container; absent keeps the image's. */
  workDir?: string;
  /** `uid:gid` the container runs as; absent keeps the image's user. */
  user?: string;
  /** A fixed address on the network (nerdctl: its host-local IPAM gives a new one at every start otherwise). */
  ip?: string;
}

export type ContainerOp =
  | { op: 'network-create'; name: string; labels: Record<string, string> }
  | { op: 'network-rm'; name: string }
  | { op: 'pull'; image: string }
  | { op: 'create'; spec: ContainerSpec }
  | { op: 'start'; name: string }
  | { op: 'stop'; name: string; timeoutSeconds: number }
  | { op: 'rm'; name: string }
  | { op: 'volume-rm'; name: string };

/** How one engine spells the few things that differ between docker, podman and nerdctl. */
export interface CommandDialect {
  cli: string;
  /** `--link` (docker), `--requires` (podman), or nothing (nerdctl). */
  linkFlag?: string;
}

/** Docker's MAC for an IPv4 address: 02:42 and the address's four bytes. */
export function macFor(ip: string): string {
  return ['02', '42', ...ip.split('.').map((b) => Number(b).toString(16).padStart(2, '0'))].join(':');
}

const labelArgs = (labels: Record<string, string>): string[] => Object.entries(labels).map(([k, v]) => `--label=${k}=${v}`);

/** The command line of an operation (without the CLI itself). */
export function renderArgs(op: ContainerOp, dialect: CommandDialect): string[] {
  switch (op.op) {
    case 'network-create':
      return ['network', 'create', ...labelArgs(op.labels), op.name];
    case 'network-rm':
      return ['network', 'rm', op.name];
    case 'pull':
      return ['pull', op.image];
    case 'create': {
      const s = op.spec;
      return [
        'create',
        `--name=${s.name}`,
        '--pull=never',
        // --entrypoint takes one program; the rest of a longer entrypoint goes before the args,
        // which is what the API's Entrypoint array means.
        ...(s.entrypoint.length > 0 ? [`--entrypoint=${s.entrypoint[0]}`] : []),
        ...(s.workDir ? [`--workdir=${s.workDir}`] : []),
        ...(s.user ? [`--user=${s.user}`] : []),
        `--network=${s.network}`,
        // With the address fixed, the MAC must be too (derived from it, as docker does): a new
        // random MAC behind the same address is unreachable until every neighbour's ARP entry for
        // the old one expires (tens of seconds).
        ...(s.ip ? [`--ip=${s.ip}`, `--mac-address=${macFor(s.ip)}`] : []),
        ...(dialect.linkFlag ? s.links.map((l) => `${dialect.linkFlag}=${l}`) : []),
        '--restart=unless-stopped',
        ...labelArgs(s.labels),
        ...s.ports.map((p) => `--publish=${p.hostIp}:${p.hostPort}:${p.containerPort}/tcp`),
        ...s.mounts.map((m) => `--volume=${m.hostPath}:${m.containerPath}${m.readOnly ? ':ro' : ''}`),
        ...Object.entries(s.env).map(([k, v]) => `--env=${k}=${v}`),
        s.image,
        ...s.entrypoint.slice(1),
        ...s.args,
      ];
    }
    case 'start':
      return ['start', op.name];
    case 'stop':
      // kwokctl's order (its dry-run transcript): the name, then the grace.
      return ['stop', op.name, `--time=${op.timeoutSeconds}`];
    case 'rm':
      return ['rm', '--force', '--volumes', op.name];
    case 'volume-rm':
      return ['volume', 'rm', op.name];
  }
}

export function renderCommand(op: ContainerOp, dialect: CommandDialect): string[] {
  return [dialect.cli, ...renderArgs(op, dialect)];
}
