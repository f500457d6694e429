import { join } from 'node:path';
import type { ApiEndpoint, ContainerDialect, DetectEnv } from './container/dialect.js';
import { parseHostUrl } from './container/dialect.js';

/**
 * Docker through its Engine API. DOCKER_HOST wins, as for the docker CLI; otherwise the
 * system socket and the rootless / Docker Desktop ones, in that order.
 */
export const DOCKER: ContainerDialect = {
  name: 'docker',
  cli: 'docker',
  linkFlag: '--link',
  transport: 'api',
  endpoints: dockerEndpoints,
  networkLabels: () => ({}),
  hints: {
    install: 'install Docker (Debian: `apt-get install docker.io`)',
    start: 'start dockerd (e.g. `systemctl start docker`) or set DOCKER_HOST',
  },
};

export function dockerEndpoints({ env, home, exists }: DetectEnv): ApiEndpoint[] {
  if (env.DOCKER_HOST) {
    const explicit = parseHostUrl(env.DOCKER_HOST);
    return explicit ? [explicit] : [];
  }
  const candidates = ['/var/run/docker.sock'];
  if (env.XDG_RUNTIME_DIR) candidates.push(join(env.XDG_RUNTIME_DIR, 'docker.sock'));
  if (home) candidates.push(join(home, '.docker', 'run', 'docker.sock'), join(home, '.docker', 'desktop', 'docker.sock'));
  return candidates.filter(exists).map((socketPath) => ({ socketPath }));
}
