/**
 * The kwok controller process from argv to shutdown: parse flags, load config files, check the
 * stage setup like kwok (fail when there are no stages at all), set up the Logs/ClusterLogs
 * registry and the Exec/Attach/PortForward rules, connect, wait for the API server, start the HTTP
 * server (health, metrics and the kubelet's containerLogs, exec, attach and portForward), then run
 * the controllers until the signal aborts. With
 * --leader-elect the controllers run only while this replica holds the leader Lease; a replica
 * that loses it stops with an error (as client-go components exit), to be restarted as a standby.
 */
import type { AddressInfo } from 'node:net';
import { OperationError, PreflightError, UsageError } from '../../util/errors.js';
import { createLogger, LogLevel } from '../../util/log.js';
import type { Logger } from '../../util/log.js';
import { buildConnection, defaultRetry, HttpKubeClient, loadKubeConfig, type KubeClient } from '../../kube/index.js';
import { engineCatalogFactory, gotplCatalogFactory } from '../controllers/engine-adapter.js';
import { createApiReviewer } from '../server/api-review.js';
import { KwokController } from '../controllers/kwok-controller.js';
import { LeaderElector, leaderElectionDefaults, runWhileLeader } from '../controllers/leader-election.js';
import { buildNodeSelection } from '../controllers/node-selection.js';
import { ShardMembership, shardLeaseName } from '../controllers/shard-membership.js';
import { waitForApiServer, type QuickPoll } from './wait-for-apiserver.js';
import { runShardChildren, watchShardParent } from './shard-processes.js';
import type { StageCatalog, StageCatalogFactory } from '../controllers/stage-engine.js';
import { configPathsOf, implementedCrdKinds, parseKwokArgs, renderKwokUsage, resolveKwokOptions } from './options.js';
import type { KwokControllerOptions } from './options.js';
import { startKwokServer, resolveListenAddress } from '../server/http-server.js';
import { serverTls } from './server-tls.js';
import type { RunningServer } from '../server/http-server.js';
import { KwokMetrics } from '../server/kwok-metrics.js';
import { ConfigFileError, loadKwokConfigFiles } from './config-file.js';
import type { KwokConfigFiles } from './config-file.js';
import { LOGS_KINDS } from '../api/logs-schema.js';
import type { LogsKind } from '../api/logs-schema.js';
import { LogsRegistry } from '../controllers/logs-registry.js';
import { CONTAINER_LOGS_PREFIX, handleContainerLogs } from '../server/container-logs.js';
import { RULES_FIELD, STREAMING_KINDS } from '../api/streaming-schema.js';
import type { StreamingKind } from '../api/streaming-schema.js';
import { StreamingRegistry } from '../controllers/streaming-registry.js';
import { kubeletStreamingRoutes } from '../server/kubelet-streaming.js';
import { METRICS_KINDS } from '../api/metrics-schema.js';
import type { MetricsKind } from '../api/metrics-schema.js';
import { MetricsObjects } from '../controllers/metrics-objects.js';
import { ResourceMetrics } from '../server/resource-metrics.js';

export interface RunKwokControllerOptions {
  /** Stops the controller; without one it runs until the process ends. */
  signal?: AbortSignal;
  /** Where log lines go; default: timestamped lines on stderr at the -v level. */
  logger?: Logger;
  /** Where --help is written. */
  stdout?: (text: string) => void;
  /** Stage engine; default: the engine in src/kwok/engine. Tests inject a scripted one. */
  catalogFactory?: StageCatalogFactory;
  /** API client; default: HTTP client from the kubeconfig. Tests inject a fake. */
  client?: KubeClient;
  /** With an injected client: the quick first-contact poll (wait-for-apiserver.ts); tests pass a fake. */
  startupPoll?: QuickPoll;
  /** Told once the server is up and the controllers start, or wait for the leader Lease. */
  onStarted?: (info: { serverAddress: AddressInfo | undefined; identity: string }) => void;
  /** Environment and service-account root for the in-cluster config; tests point them elsewhere. */
  env?: NodeJS.ProcessEnv;
  serviceAccountRoot?: string;
}

/** Drops messages below `level` before they reach the caller's logger. */
function atLevel(logger: Logger, level: number): Logger {
  const pass = (at: number): boolean => at >= level;
  return {
    level: Math.max(level, logger.level),
    debug: (m) => pass(LogLevel.DEBUG) && logger.debug(m),
    info: (m) => pass(LogLevel.INFO) && logger.info(m),
    warn: (m) => pass(LogLevel.WARN) && logger.warn(m),
    error: (m) => logger.error(m),
  };
}

function stderrLogger(level: number): Logger {
  return createLogger(level, (line) => process.stderr.write(`${new Date().toISOString()} ${line}\n`));
}


/**
 * Stage checks from kwok's startup: Stage CRs and --config stages exclude each other, no stages at
 * all is an error, and missing Node or Pod stages are worth a warning. An invalid stage is logged
 * with its file, name and problem, and the valid ones keep working.
 */
function checkStages(options: KwokControllerOptions, documents: readonly unknown[], factory: StageCatalogFactory, logger: Logger): StageCatalog | undefined {
  for (const kind of options.enableCRDs) if (!(implementedCrdKinds as readonly string[]).includes(kind)) logger.warn(`--enable-crds=${kind}: not implemented by this controller; ignored`);
  if (options.enableCRDs.includes('Stage')) {
    if (documents.length > 0) throw new UsageError('Stage is in --enable-crds and Stage documents are also in --config', { hint: 'drop the Stage documents from the config, or Stage from --enable-crds' });
    return undefined;
  }
  const catalog = factory(documents, options.configPaths.join(', ') || 'config');
  for (const problem of catalog.problems) logger.error(`invalid stage skipped: ${problem}`);
  if (catalog.stageCount === 0) {
    throw new UsageError('no stages configured', { hint: 'add Stage documents to a --config file, or pass --enable-crds=Stage and create Stage resources' });
  }
  const kinds = new Set(catalog.resources().filter((r) => r.apiGroup === 'v1').map((r) => r.kind));
  if (!kinds.has('Node')) logger.warn('no Node stages configured: nodes will not change');
  if (!kinds.has('Pod')) logger.warn('no Pod stages configured: pods will not change');
  return catalog;
}

/**
 * Logs and ClusterLogs each come from --config or, when listed in --enable-crds, from custom
 * resources; as with Stage, having both is a mistake worth stopping for.
 */
function buildLogsRegistry(options: KwokControllerOptions, files: KwokConfigFiles, logger: Logger): { registry: LogsRegistry; watched: LogsKind[] } {
  const watched = LOGS_KINDS.filter((kind) => options.enableCRDs.includes(kind));
  for (const kind of watched) {
    if ((kind === 'Logs' ? files.logs : files.clusterLogs).length > 0) {
      throw new UsageError(`${kind} is in --enable-crds and ${kind} documents are also in --config`, { hint: `drop the ${kind} documents from the config, or ${kind} from --enable-crds` });
    }
  }
  const registry = new LogsRegistry({
    ...(watched.includes('Logs') ? {} : { logs: files.logs }),
    ...(watched.includes('ClusterLogs') ? {} : { clusterLogs: files.clusterLogs }),
    logger,
  });
  return { registry, watched };
}

/**
 * Exec, Attach, PortForward and their Cluster kinds, like Logs: each from --config or, when in
 * --enable-crds, from custom resources, and never both.
 */
function buildStreamingRegistry(options: KwokControllerOptions, files: KwokConfigFiles, logger: Logger): { registry: StreamingRegistry; watched: StreamingKind[] } {
  const watched = STREAMING_KINDS.filter((kind) => options.enableCRDs.includes(kind));
  for (const kind of watched) {
    if (files.streaming[RULES_FIELD[kind]].length > 0) {
      throw new UsageError(`${kind} is in --enable-crds and ${kind} documents are also in --config`, { hint: `drop the ${kind} documents from the config, or ${kind} from --enable-crds` });
    }
  }
  return { registry: new StreamingRegistry({ rules: files.streaming, logger }), watched };
}

/**
 * Metric, ResourceUsage and ClusterResourceUsage each come from --config or, when listed in
 * --enable-crds, from custom resources (both at once is refused, as for Logs). The node and pod
 * caches behind the metrics endpoints only run when there is something to serve.
 */
function buildMetricsObjects(options: KwokControllerOptions, files: KwokConfigFiles, logger: Logger): { objects: MetricsObjects; watched: MetricsKind[]; active: boolean } {
  const watched = METRICS_KINDS.filter((kind) => options.enableCRDs.includes(kind));
  const fromFiles: Record<MetricsKind, readonly unknown[]> = { Metric: files.metrics, ResourceUsage: files.resourceUsages, ClusterResourceUsage: files.clusterResourceUsages };
  for (const kind of watched) {
    if (fromFiles[kind].length > 0) {
      throw new UsageError(`${kind} is in --enable-crds and ${kind} documents are also in --config`, { hint: `drop the ${kind} documents from the config, or ${kind} from --enable-crds` });
    }
  }
  const objects = new MetricsObjects({
    ...(watched.includes('Metric') ? {} : { metrics: files.metrics }),
    ...(watched.includes('ResourceUsage') ? {} : { resourceUsages: files.resourceUsages }),
    ...(watched.includes('ClusterResourceUsage') ? {} : { clusterResourceUsages: files.clusterResourceUsages }),
    logger,
  });
  return { objects, watched, active: watched.includes('Metric') || files.metrics.length > 0 };
}

export async function runKwokController(argv: readonly string[], run: RunKwokControllerOptions = {}): Promise<void> {
  const flags = parseKwokArgs(argv);
  if (flags.has('help')) {
    (run.stdout ?? ((text) => process.stdout.write(text)))(renderKwokUsage());
    return;
  }
  const configPaths = configPathsOf(flags);
  let files;
  try {
    files = loadKwokConfigFiles(configPaths);
  } catch (error) {
    if (error instanceof ConfigFileError) throw new UsageError(error.message, { cause: error });
    throw error;
  }
  const options = resolveKwokOptions(flags, files.options, configPaths);
  // --shards N: this process is shard 0 of N (the others are its children, started below).
  const baseId = options.id;
  if (options.shard.processes > 1) options.id = `${baseId}-0`;
  const logger = run.logger ? (flags.has('v') ? atLevel(run.logger, options.logLevel) : run.logger) : stderrLogger(options.logLevel);
  if (files.skippedKinds.length > 0) logger.debug(`config: skipped documents of kind ${[...new Set(files.skippedKinds)].join(', ')}`);
  const catalogFactory = run.catalogFactory ?? (options.writeShortcuts ? engineCatalogFactory : gotplCatalogFactory);
  const stages = checkStages(options, files.stages, catalogFactory, logger);
  const watchStageCrds = stages === undefined;
  const { registry: logsRegistry, watched: watchedLogKinds } = buildLogsRegistry(options, files, logger);
  const { registry: streamingRegistry, watched: watchedStreamingKinds } = buildStreamingRegistry(options, files, logger);
  const metricsObjects = buildMetricsObjects(options, files, logger);

  const signal = run.signal ?? new AbortController().signal;
  const metrics = new KwokMetrics();
  let client = run.client;
  let httpClient: HttpKubeClient | undefined;
  let membershipClient: HttpKubeClient | undefined;
  let quickClient: HttpKubeClient | undefined;
  let podNamespace: string | undefined;
  if (!client) {
    let loaded;
    try {
      loaded = loadKubeConfig({
        ...(options.kubeconfig ? { kubeconfig: options.kubeconfig } : {}),
        ...(options.master ? { master: options.master } : {}),
        ...(run.env ? { env: run.env } : {}),
        ...(run.serviceAccountRoot !== undefined ? { serviceAccountRoot: run.serviceAccountRoot } : {}),
        logger,
      });
    } catch (error) {
      throw new PreflightError((error as Error).message, { hint: 'pass --kubeconfig or --master', cause: error });
    }
    logger.info(`kubeconfig: ${loaded.origin}`);
    let connection;
    try {
      connection = await buildConnection(loaded.config);
      podNamespace = loaded.inCluster?.namespace;
    } catch (error) {
      throw new PreflightError(`kubeconfig ${loaded.origin}: ${(error as Error).message}`, { cause: error });
    }
    // The shard Lease gets connections of its own: behind thousands of node-lease and stage
    // requests in the shared pool, its renewal could wait past its own duration on a slow apiserver.
    if (options.shard.enabled) membershipClient = new HttpKubeClient(connection, { maxSockets: 2, userAgent: 'kwokts-controller-shard' });
    httpClient = new HttpKubeClient(connection, {
      onRequest: (method, ref, status, seconds) => metrics.apiRequest(method, ref, status, seconds),
    });
    client = httpClient;
    // The first contact polls quickly while the apiserver comes up (wait-for-apiserver.ts).
    quickClient = new HttpKubeClient(connection, { maxSockets: 1, retry: { ...defaultRetry, retries: 0 }, userAgent: 'kwokts-controller' });
  }

  let server: RunningServer | undefined;
  // Ends the Logs and Exec/Attach/PortForward watches with the controller, also when it fails.
  const logsWatch = new AbortController();
  const stopLogsWatch = (): void => logsWatch.abort();
  signal.addEventListener('abort', stopLogsWatch, { once: true });
  try {
    const quick: QuickPoll | undefined = quickClient ? { client: quickClient } : run.startupPoll;
    await waitForApiServer(client, logger, signal, quick);
    quickClient?.close();
    const kubeClient = client;
    if (watchedLogKinds.length > 0) {
      // Every replica serves logs (standbys included), so the watch does not wait for leadership.
      void logsRegistry.run(kubeClient, watchedLogKinds, logsWatch.signal);
      logger.info(`watching ${watchedLogKinds.join(' and ')} custom resources`);
    }
    if (watchedStreamingKinds.length > 0) {
      void streamingRegistry.run(kubeClient, watchedStreamingKinds, logsWatch.signal);
      logger.info(`watching ${watchedStreamingKinds.join(', ')} custom resources`);
    }
    if (metricsObjects.active) {
      void metricsObjects.objects.run(kubeClient, metricsObjects.watched, logsWatch.signal);
      if (metricsObjects.watched.length > 0) logger.info(`watching ${metricsObjects.watched.join(', ')} custom resources`);
    }
    const resourceMetrics = new ResourceMetrics(metricsObjects.objects, logger);
    let synced = false;
    const listen = resolveListenAddress(options.serverAddress, options.nodePort);
    if (listen) {
      server = await startKwokServer({
        listen,
        renderMetrics: () => metrics.render(),
        routes: [
          { prefix: CONTAINER_LOGS_PREFIX, handle: handleContainerLogs({ lookup: (ns, pod, container) => logsRegistry.lookup(ns, pod, container), logger }) },
          // Every Metric's path (they all start with /metrics/; /metrics itself is the controller's own).
          { prefix: '/metrics/', handle: resourceMetrics.handler() },
        ],
        upgradeRoutes: kubeletStreamingRoutes({ rules: () => streamingRegistry.current(), logger }),
        isReady: () => synced,
        tls: await serverTls(options, listen.host),
        ...(options.clientCaFile ? { reviewer: createApiReviewer(kubeClient) } : {}),
        logger,
      }).catch((error: Error) => {
        throw new PreflightError(`cannot listen on ${listen.host}:${listen.port}: ${error.message}`, { cause: error });
      });
      logger.info(`serving /healthz, /metrics, /containerLogs, /exec, /attach and /portForward on ${server.address.address}:${server.address.port}`);
    }
    run.onStarted?.({ serverAddress: server?.address, identity: options.id });

    const runControllers = async (controllerSignal: AbortSignal, takeOverNodeLeasesFrom?: string): Promise<void> => {
      const selection = buildNodeSelection(options.manageMode, {
        annotationSelector: options.disregardStatusWithAnnotationSelector,
        labelSelector: options.disregardStatusWithLabelSelector,
      });
      const shardOptions = options.shard;
      let onRing = (): void => {};
      const membership = shardOptions.enabled
        ? new ShardMembership({
            client: membershipClient ?? kubeClient,
            identity: options.id,
            namespace: shardOptions.namespace,
            leaseDurationMs: shardOptions.leaseDurationMs,
            retryPeriodMs: shardOptions.retryPeriodMs,
            logger,
            onChange: () => onRing(),
          })
        : undefined;
      if (membership && options.nodeLeaseDurationSeconds > 0 && shardOptions.leaseDurationMs + shardOptions.retryPeriodMs >= (options.nodeLeaseDurationSeconds * 1000 * 3) / 4) {
        logger.warn('--shard-lease-duration plus --shard-retry-period is not well below 3/4 of --node-lease-duration-seconds: node leases of a shard that dies may lapse before another shard takes them');
      }
      const controller = new KwokController({
        ...(membership ? { shard: { owns: (name: string) => membership.owns(name), isShard: (holder: string) => membership.isShard(holder), handoverGraceMs: shardOptions.leaseDurationMs } } : {}),
        client: kubeClient,
        selection,
        catalogFactory,
        ...(stages ? { stages } : {}),
        watchStageCrds,
        identity: options.id,
        nodeIP: options.nodeIP,
        nodeName: options.nodeName,
        nodePort: options.nodePort,
        cidr: options.cidr,
        nodeLeaseDurationSeconds: options.nodeLeaseDurationSeconds,
        nodeLeaseParallelism: options.nodeLeaseParallelism,
        ...(takeOverNodeLeasesFrom ? { takeOverNodeLeasesFrom: [takeOverNodeLeasesFrom] } : {}),
        nodePlayStageParallelism: options.nodePlayStageParallelism,
        podPlayStageParallelism: options.podPlayStageParallelism,
        writeShortcuts: options.writeShortcuts,
        logger,
        metrics,
      });
      metrics.bindStats(() => controller.stats());
      void controller.waitForSync().then(() => {
        synced = true;
        logger.info('initial node and pod lists processed');
      });
      logger.info(
        `kwok controller ${options.id} started: manage ${describeMode(options)}, ${watchStageCrds ? 'stages from Stage CRs' : `${stages?.stageCount ?? 0} stages`}, ` +
          `leases ${options.nodeLeaseDurationSeconds > 0 ? `${options.nodeLeaseDurationSeconds}s` : 'off'}${membership ? `, shard of ${shardOptions.namespace}/${shardLeaseName(options.id)}` : ''}`,
      );
      if (!membership) {
        await controller.run(controllerSignal);
        return;
      }
      // A new member set re-evaluates the nodes that changed owner: won ones are leased, lost ones handed over.
      onRing = () => controller.nodes.reassign();
      await Promise.all([membership.run(controllerSignal), controller.run(controllerSignal)]);
    };

    const election = options.leaderElection;
    if (!election.enabled) {
      const inner = new AbortController();
      const stopInner = (): void => inner.abort();
      if (signal.aborted) inner.abort();
      else signal.addEventListener('abort', stopInner, { once: true });
      watchShardParent(() => {
        logger.warn('the process that started this shard is gone; stopping');
        inner.abort();
      }, {
        env: run.env,
        exit: () => {
          logger.error('the process that started this shard is gone and stopping did not finish; exiting');
          process.exit(1);
        },
      });
      try {
        await Promise.all([
          runControllers(inner.signal),
          ...(options.shard.processes > 1
            ? [runShardChildren({ flags, id: baseId, count: options.shard.processes, listenHost: listen?.host, logger }, inner.signal)]
            : []),
        ]);
      } finally {
        signal.removeEventListener('abort', stopInner);
      }
    } else {
      const elector = new LeaderElector({
        client: kubeClient,
        namespace: election.resourceNamespace ?? podNamespace ?? leaderElectionDefaults.resourceNamespace,
        name: election.resourceName,
        identity: options.id,
        leaseDurationMs: election.leaseDurationMs,
        renewDeadlineMs: election.renewDeadlineMs,
        retryPeriodMs: election.retryPeriodMs,
        logger,
      });
      const outcome = await runWhileLeader(elector, signal, (leaderSignal) => {
        const previous = elector.previousLeader;
        if (previous) logger.info(`leader election: taking over the node leases of ${previous}`);
        return runControllers(leaderSignal, previous);
      });
      if (outcome === 'lost') {
        throw new OperationError(`lost the leader election ${elector.description}`, { hint: 'another replica leads now; restart this one to stand by again' });
      }
    }
  } catch (error) {
    if (signal.aborted) return;
    if (error instanceof UsageError || error instanceof PreflightError || error instanceof OperationError) throw error;
    throw new OperationError(`kwok controller failed: ${(error as Error).message}`, { cause: error });
  } finally {
    signal.removeEventListener('abort', stopLogsWatch);
    logsWatch.abort();
    await server?.close();
    httpClient?.close();
    membershipClient?.close();
    quickClient?.close();
    logger.info('kwok controller stopped');
  }
}

function describeMode(options: KwokControllerOptions): string {
  const mode = options.manageMode;
  switch (mode.kind) {
    case 'all':
      return 'all nodes';
    case 'single':
      return `node ${mode.nodeName}`;
    case 'label-selector':
      return `nodes with labels ${mode.selector}`;
    case 'annotation-selector':
      return `nodes with annotations ${mode.selector}`;
  }
}
