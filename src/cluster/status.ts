import type { Logger } from '../util/log.js';
import type { ClusterPaths } from '../naming/naming.js';
import { probeOnce } from './probe.js';
import type { ClusterRecord } from './record.js';

export interface ComponentHealth {
  name: string;
  ready: boolean;
  detail: string;
}

/** Probe every component of a saved cluster once. */
export async function probeComponents(record: ClusterRecord, paths: ClusterPaths): Promise<ComponentHealth[]> {
  return Promise.all(
    record.components.map(async (c) => {
      const result = await probeOnce(c.probe, paths, 1500);
      return { name: c.name, ready: result.ok, detail: result.detail };
    }),
  );
}

export async function isClusterReady(record: ClusterRecord, paths: ClusterPaths, logger: Logger): Promise<boolean> {
  const health = await probeComponents(record, paths);
  for (const h of health) if (!h.ready) logger.debug(`${h.name} not ready: ${h.detail}`);
  return health.every((h) => h.ready);
}
