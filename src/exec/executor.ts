/**
 * The one route to side effects. Cluster verbs describe what they do through an Executor, so
 * the same code path either does the work (RealExecutor) or prints the kwokctl-style shell
 * transcript of it (DryRunExecutor) — dry-run cannot drift from the real run.
 */
export interface SpawnSpec {
  /** Absolute path of the program. */
  command: string;
  args: readonly string[];
  cwd: string;
  env?: Readonly<Record<string, string>>;
  /** stdout and stderr of the process are appended here. */
  logFile: string;
  /** The process id is written here once it has started. */
  pidFile: string;
  /**
   * Set as KWOKTS_OWNER in the process's environment (inherited by its children), so a process
   * whose pid never reached its pid file (we were killed in between) can still be found and
   * stopped. Such a process still running when the marker is spawned again is stopped first: it
   * is an orphan of an earlier start, holding the ports the new one needs. Bookkeeping only: not
   * part of the dry-run transcript.
   */
  marker?: string;
  /** Start it with NODE_EXTRA_CA_CERTS deferred (Component.defersExtraCaCerts). */
  defersExtraCaCerts?: boolean;
  /** Put before NODE_OPTIONS (Component.nodeOptions). Bookkeeping, as marker: not in the dry-run transcript. */
  nodeOptions?: readonly string[];
}

export interface RunSpec {
  command: string;
  args: readonly string[];
  cwd?: string;
  env?: Readonly<Record<string, string>>;
}

export interface KillSpec {
  pidFile: string;
  /** SIGTERM first and wait this long before SIGKILL; 0 kills at once. */
  graceMs: number;
  /** Only signal the pid if it still runs this program (pids get reused). */
  expectedCommand?: string;
  /** Also stop every process started with this SpawnSpec marker (see there). */
  marker?: string;
}

/**
 * An effect performed in-process through an API (a container engine's), that has an exact
 * command-line equivalent: dry-run prints that command line instead of performing it.
 */
export interface CallSpec<T> {
  /** The equivalent command line, e.g. `docker network create …`. */
  argv: readonly string[];
  perform: () => Promise<T>;
  /** Returned under dry-run in place of perform's result. */
  dryRunResult: T;
  /** Work with no command line (a kubeconfig edit): dry-run prints this as a `# ` comment instead of argv. */
  note?: string;
  /** Dry-run prints argv one word per line, as kwokctl prints its engine commands. */
  wordPerLine?: boolean;
}

export interface WriteFileOptions {
  /** File mode; secrets (keys, kubeconfigs) are written 0600. */
  mode?: number;
}

export interface MkdirOptions {
  /** Mode of `dir` itself (parents get the default), set even when it exists already: 0700 for private directories. */
  mode?: number;
}

export interface Executor {
  readonly dryRun: boolean;
  mkdirp(dir: string, options?: MkdirOptions): Promise<void>;
  writeFile(path: string, content: string, options?: WriteFileOptions): Promise<void>;
  remove(path: string): Promise<void>;
  /** Start a long-running detached process; returns its pid (0 under dry-run). */
  spawnDetached(spec: SpawnSpec): Promise<number>;
  /** Stop the process named by a pid file (if it runs) and remove the pid file. */
  kill(spec: KillSpec): Promise<void>;
  /**
   * Kill at once every process whose SpawnSpec marker is `marker`, or starts with `markerPrefix`;
   * returns their pids. Bookkeeping, as the marker: not part of the dry-run transcript (nothing
   * under dry-run).
   */
  killMarked(match: { marker: string } | { markerPrefix: string }): Promise<number[]>;
  /** Run a command to completion and return its stdout. */
  run(spec: RunSpec): Promise<string>;
  /** An API call with a command-line equivalent (container engines through their API). */
  call<T>(spec: CallSpec<T>): Promise<T>;
  /** Record in-process work that has no shell form (PKI, API calls, kubeconfig edits). */
  note(message: string): Promise<void>;
}
