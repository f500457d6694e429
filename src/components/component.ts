import type { ClusterPaths } from '../naming/naming.js';
import type { ClusterOptionValues } from '../config/options.js';
import type { ComponentName } from '../config/component-names.js';
import type { Placement } from './placement.js';

/** Binaries a cluster may need, by their upstream names. */
export type ArtifactName = 'etcd' | 'etcdctl' | 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kubectl' | 'prometheus' | 'metrics-server' | 'jaeger';

export { COMPONENT_NAMES, KWOKCTL_COMPONENTS_NOT_RUN, type BuiltinComponentName, type ComponentName } from '../config/component-names.js';

/** Components a cluster runs unless told otherwise; kwokctl's default set. */
export const DEFAULT_COMPONENTS: readonly ComponentName[] = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller'];
/** The cluster is meaningless without these, so --disable refuses them (as kwokctl). */
export const REQUIRED_COMPONENTS: readonly ComponentName[] = ['etcd', 'kube-apiserver'];

export type Program = { artifact: ArtifactName } | { path: string };

export interface ReadinessProbe {
  scheme: 'http' | 'https';
  port: number;
  path: string;
  /** https probes present the admin client certificate (the apiserver requires it for /readyz). */
  clientCert: boolean;
}

export interface ComponentPort {
  name: string;
  /** The port on the host (where probes, kubectl and etcdctl connect). */
  port: number;
  /** Where the component listens inside its container, when that is not `port`. */
  containerPort?: number;
}

/**
 * A host path the component reads (or, for data, writes). Container runtimes mount exactly these,
 * at the same path, so arguments need no translation; host processes ignore them.
 */
export interface ComponentMount {
  path: string;
  readOnly: boolean;
}

/**
 * A component described once, independent of how it is run. The binary runtime turns it into
 * a detached process; container runtimes will turn the same record into a container.
 */
export interface Component {
  name: ComponentName;
  program: Program;
  args: string[];
  env: Record<string, string>;
  /** Components that must be up before this one starts. */
  links: ComponentName[];
  /**
   * The component keeps retrying its links until they answer, so it may start as soon as they
   * have been started rather than once they are ready. Overlapping start-ups is most of what
   * makes create fast (the controller's start overlaps the apiserver's).
   */
  retriesLinks?: boolean;
  /**
   * With retriesLinks: start once the links answer their probes at all (they serve, not yet
   * ready) instead of as soon as they were started. For kube-apiserver's clients: on a CPU-bound
   * machine their own start-up (and their retries against a port that is not open yet) takes CPU
   * from the apiserver's start, which is create's critical path; started when it serves, they are
   * ready before its post-start hooks finish, and create is ready sooner.
   */
  startsWhenLinksServe?: boolean;
  ports: ComponentPort[];
  /** Absent for user components: they are ready while they run. */
  probe?: ReadinessProbe;
  /**
   * Host paths the component sees at mountPath. Container runtimes mount them; binary processes
   * see the host's files directly, so only identical paths mean the same there.
   */
  volumes?: ComponentVolume[];
  /** The entrypoint of a user component's image (binary runtimes run `program` instead). */
  command?: string[];
  /** Working directory of a user component. */
  workDir?: string;
  /** Files the component reads that the cluster generates for it (e.g. prometheus.yaml). */
  files?: ComponentFile[];
  /** Host paths the component needs (certificates, config, data). */
  mounts?: ComponentMount[];
  /** The image that runs it in a container runtime (a user component's own, as given). */
  image?: string;
  /**
   * Its upstream image runs as an unprivileged user (prom/prometheus and metrics-server as
   * 65534), who can neither read the cluster's 0600 keys nor write its 0700 data directories:
   * container runtimes run it as the user that owns the cluster's files instead.
   */
  runAsFileOwner?: boolean;
  /**
   * The program is kwokts's own Node entry (bin/kwok-controller.js), which takes back a deferred
   * NODE_EXTRA_CA_CERTS itself (src/util/extra-ca-certs.ts): the binary runtime starts it with the
   * variable deferred, so that it does not parse the certificates while it starts.
   */
  defersExtraCaCerts?: boolean;
  /**
   * Node options for kwokts's own Node program on the host (the controller): the runtime puts
   * them before the user's NODE_OPTIONS when it starts the process (the user's own come later and
   * win), and nowhere in the component's env, so the record never carries the user's. An image
   * has them in its entrypoint instead (Dockerfile).
   */
  nodeOptions?: readonly string[];
}

export interface ComponentVolume {
  hostPath: string;
  mountPath: string;
  readOnly: boolean;
}

export interface ComponentFile {
  path: string;
  content: string;
}

export type { ClusterPorts } from './ports.js';
import type { ClusterPorts } from './ports.js';

/** Everything a component builder needs, already decided (ports picked, versions resolved). */
export interface ClusterSpec {
  name: string;
  paths: ClusterPaths;
  options: ClusterOptionValues;
  kubeVersion: string;
  etcdVersion: string;
  ports: ClusterPorts;
  components: readonly ComponentName[];
  /** slog-style level (-4 debug, 0 info, ...); components get their own verbosity flags from it. */
  logLevel: number;
  /** Executable of the embedded kwok controller on the host (bin/kwok-controller.js). */
  kwokControllerEntry: string;
  /** Kinds the controller takes from custom resources instead of its config file. */
  enableCrds: readonly string[];
  /** Directories of the Logs/ClusterLogs files, mounted read-only into a containerised controller. */
  logDirs?: readonly string[];
  /** Where components listen and how they reach each other (default: host processes). */
  placement?: Placement;
  /** Images of the components, for container runtimes. */
  images?: Partial<Record<ComponentName, string>>;
}
