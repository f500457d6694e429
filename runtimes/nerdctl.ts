import type { ContainerDialect } from './container/dialect.js';

/** nerdctl (containerd) through its CLI: it has no Docker-compatible API to talk to. */
export const NERDCTL: ContainerDialect = {
  name: 'nerdctl',
  cli: 'nerdctl',
  transport: 'cli',
  pinAddresses: true,
  endpoints: () => [],
  networkLabels: () => ({}),
  hints: {
    install: 'install nerdctl and containerd (https://github.com/containerd/nerdctl)',
    start: 'start containerd (e.g. `systemctl start containerd`)',
  },
};
