import { logFile, ownerMarker, pidFile, processName } from '../../src/naming/naming.js';
// Not index.ts: that loads every component builder (and the yaml package), which a delete, the
// stop that matters most for speed, never needs.
import { COMPONENT_NAMES, type Component, type ComponentName, type ComponentPort } from '../../src/components/component.js';
import { startGroups } from '../../src/components/start-groups.js';
import { PreflightError } from '../../src/util/errors.js';
import type { Writable } from 'node:stream';
import type { ComponentStatus, LogOptions, PortEndpoint, Runtime, RuntimeContext, RuntimeInfo, StopOptions } from '../runtime.js';
import { printLog } from '../../src/util/log-file.js';
import { isProcessAlive, readPid } from '../../src/exec/process.js';
import { mark } from '../../src/util/timeline.js';

const STOP_GRACE_MS = 10_000;

/** Components as detached host processes with pid files and log files in the cluster directory. */
export class BinaryRuntime implements Runtime {
  info(): RuntimeInfo {
    return { name: 'binary', mode: 'native' };
  }

  async start(components: readonly Component[], ctx: RuntimeContext): Promise<void> {
    for (const component of components) {
      const command = programPath(component, ctx);
      const name = fileNameOf(component, ctx);
      const pidPath = pidFile(ctx.paths, name);
      const existing = await readPid(pidPath);
      if (existing !== undefined && (await isProcessAlive(existing, command))) continue;
      for (const v of component.volumes ?? []) {
        // A host process sees the host's files: only a volume at its own path means the same here.
        if (v.hostPath !== v.mountPath) ctx.logger.warn(`${component.name}: volume ${v.hostPath} → ${v.mountPath} is not mounted by the binary runtime; refer to ${v.hostPath} directly`);
      }
      await ctx.executor.spawnDetached({
        command,
        args: component.args,
        cwd: component.workDir ?? ctx.paths.root,
        env: component.env,
        logFile: logFile(ctx.paths, name),
        pidFile: pidPath,
        marker: ownerMarker(ctx.paths, component.name),
        ...(component.defersExtraCaCerts ? { defersExtraCaCerts: true } : {}),
        ...(component.nodeOptions?.length ? { nodeOptions: component.nodeOptions } : {}),
      });
      mark(`${component.name}: started`);
    }
  }

  async stop(components: readonly Component[], ctx: RuntimeContext, options: StopOptions = {}): Promise<void> {
    const graceMs = options.graceMs ?? STOP_GRACE_MS;
    // Reverse start groups: the apiserver must not outlive etcd's shutdown waiting on it. Killed
    // at once (no grace) nothing shuts down, so there is no order to keep: all go together.
    const groups = graceMs > 0 ? startGroups(components).reverse() : [startGroups(components).flat()];
    for (const group of groups) {
      await Promise.all(
        group.map(async (component) => {
          const expectedCommand = programPath(component, ctx, false);
          await ctx.executor.kill({ pidFile: pidFile(ctx.paths, fileNameOf(component, ctx)), graceMs, marker: ownerMarker(ctx.paths, component.name), ...(expectedCommand ? { expectedCommand } : {}) });
        }),
      );
    }
  }

  async status(components: readonly Component[], ctx: RuntimeContext): Promise<ComponentStatus[]> {
    return Promise.all(
      components.map(async (component): Promise<ComponentStatus> => {
        const command = programPath(component, ctx, false);
        const pid = await readPid(pidFile(ctx.paths, fileNameOf(component, ctx)));
        if (pid === undefined) return { name: component.name, state: 'stopped' };
        const alive = await isProcessAlive(pid, command);
        return { name: component.name, state: alive ? 'running' : 'exited', id: String(pid) };
      }),
    );
  }

  async check(): Promise<void> {
    // Binaries are resolved (downloaded or built) as part of create.
  }

  async logs(component: ComponentName, ctx: RuntimeContext, out: Writable, options: LogOptions): Promise<void> {
    const described = ctx.clusterComponents?.find((c) => c.name === component);
    await printLog(logFile(ctx.paths, described ? fileNameOf(described, ctx) : component), out, options);
  }

  /**
   * Host processes listen on the host: a declared port, or any number (as kwokctl's binary
   * runtime, which dials whatever port it is given), on loopback, where the readiness probes look too.
   */
  endpoint(_component: Component, port: ComponentPort | number): PortEndpoint {
    return { kind: 'address', host: '127.0.0.1', port: typeof port === 'number' ? port : port.port };
  }

  async remove(): Promise<void> {
    // Everything the binary runtime makes lives in the cluster directory.
  }
}

/**
 * What the component's pid and log files are named after: its executable, as kwokctl names them,
 * unless another component of the cluster runs the same executable (two extra components both
 * run by `node`); those keep their component names, so neither mistakes the other for itself.
 */
function fileNameOf(component: Component, ctx: RuntimeContext): string {
  // kwokctl runs a built-in component from a copy named after it (<cluster>/bin/<component>), so
  // its pid and log files carry the component's name whatever binary was given (--kwok-controller-
  // binary=/x/kwok still makes kwok-controller.pid); a user's component runs its program where it
  // is, and its files are named after that program.
  if ((COMPONENT_NAMES as readonly string[]).includes(component.name)) return component.name;
  const name = processName(component.name, programPath(component, ctx, false));
  const shared = (ctx.clusterComponents ?? []).some((c) => c.name !== component.name && processName(c.name, programPath(c, ctx, false)) === name);
  return shared ? component.name : name;
}

function programPath(component: Component, ctx: RuntimeContext): string;
function programPath(component: Component, ctx: RuntimeContext, required: false): string | undefined;
function programPath(component: Component, ctx: RuntimeContext, required = true): string | undefined {
  if ('path' in component.program) return component.program.path;
  const path = ctx.programs.get(component.program.artifact);
  if (!path && required) {
    throw new PreflightError(`no ${component.program.artifact} binary for component ${component.name}`, {
      hint: `pass --${component.program.artifact}-binary=/path or run \`kwokts artifacts build\``,
    });
  }
  return path;
}
