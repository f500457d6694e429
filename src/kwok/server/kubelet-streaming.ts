/**
 * The kubelet's streaming routes (/exec/, /attach/, /portForward/) wired to the Exec, Attach and
 * PortForward rules: which entry answers is decided per request, so rules watched as custom
 * resources take effect for the next `kubectl` call.
 */
import type { Logger } from '../../util/log.js';
import type { StreamingRules } from '../api/streaming-schema.js';
import { findAttach, findExec, findForward } from '../controllers/streaming-registry.js';
import { runAttach } from './attach-logs.js';
import { runLocalCommand } from './exec-local.js';
import type { UpgradeRoute } from './http-server.js';
import { handlePortForwardUpgrade, PORT_FORWARD_PREFIX } from './port-forward.js';
import { ATTACH_PREFIX, EXEC_PREFIX, handleRemoteCommandUpgrade } from './remote-command.js';
import type { CommandOutcome, RemoteCommandRequest, RemoteCommandStreams } from './remote-command.js';

export interface KubeletStreamingOptions {
  rules(): StreamingRules;
  logger: Logger;
}

export function runRemoteCommand(rules: StreamingRules, request: RemoteCommandRequest, streams: RemoteCommandStreams, logger: Logger): Promise<CommandOutcome> {
  const { namespace, pod, container } = request;
  if (request.kind === 'attach') {
    const found = findAttach(rules, namespace, pod, container);
    if (!found.found) return Promise.resolve({ kind: 'error', message: found.message });
    logger.debug(`attach ${namespace}/${pod}/${container} via ${found.from}`);
    return runAttach(found.entry, container, `${namespace}/${pod}`, streams);
  }
  const found = findExec(rules, namespace, pod, container);
  if (!found.found) return Promise.resolve({ kind: 'error', message: found.message });
  // kwok runs only `local` targets.
  if (!found.entry.local) return Promise.resolve({ kind: 'error', message: 'not set local exec' });
  logger.debug(`exec ${namespace}/${pod}/${container} via ${found.from}: ${request.command.join(' ')}`);
  return runLocalCommand(found.entry.local, request.command, streams);
}

export function kubeletStreamingRoutes(options: KubeletStreamingOptions): UpgradeRoute[] {
  const { logger } = options;
  const remote = handleRemoteCommandUpgrade({ logger, run: (request, streams) => runRemoteCommand(options.rules(), request, streams, logger) });
  return [
    { prefix: EXEC_PREFIX, handle: remote },
    { prefix: ATTACH_PREFIX, handle: remote },
    {
      prefix: PORT_FORWARD_PREFIX,
      handle: handlePortForwardUpgrade({ logger, lookup: (namespace, pod, port) => findForward(options.rules(), namespace, pod, port) }),
    },
  ];
}
