import { stringify } from 'yaml';
import { CONTAINER_PORTS, type Component, type ComponentName } from '../../src/components/index.js';

/**
 * Where each component serves /metrics inside a kind node, seen from a pod on the node's network:
 * kubeadm's components on the node's loopback at their own ports (etcd's plain-HTTP metrics
 * listener, the apiserver, the controller-manager's and the scheduler's secure ports), and what
 * kwokts deploys at the ports its templates give them (templates/kind).
 */
const IN_NODE_METRICS: Partial<Record<ComponentName, { scheme: 'http' | 'https'; port: number; token: boolean; verify: boolean }>> = {
  etcd: { scheme: 'http', port: 2381, token: false, verify: false },
  'kube-apiserver': { scheme: 'https', port: 6443, token: true, verify: true },
  'kube-controller-manager': { scheme: 'https', port: 10257, token: true, verify: false },
  'kube-scheduler': { scheme: 'https', port: 10259, token: true, verify: false },
  // Its token: the controller asks the apiserver whether it may read /metrics (system:monitoring).
  'kwok-controller': { scheme: 'https', port: CONTAINER_PORTS.kwokController, token: true, verify: false },
  prometheus: { scheme: 'http', port: CONTAINER_PORTS.prometheus, token: false, verify: false },
  'metrics-server': { scheme: 'https', port: CONTAINER_PORTS.metricsServer, token: true, verify: false },
};

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

/**
 * Prometheus' configuration in a kind cluster: one job per component of the cluster, named as
 * kwokctl names them, scraped where it serves in the node. The apiserver's certificate is
 * verified against the cluster CA (it names 127.0.0.1); the controller-manager, the scheduler and
 * metrics-server serve certificates they made for themselves, so those are not verified, as
 * kwokctl has it.
 */
export function kindPrometheusConfig(components: readonly Component[]): string {
  const jobs = components.flatMap((c) => {
    const target = IN_NODE_METRICS[c.name];
    if (!target) return [];
    return [{
      job_name: c.name,
      scheme: target.scheme,
      metrics_path: '/metrics',
      ...(target.token ? { authorization: { credentials_file: `${SERVICE_ACCOUNT}/token` } } : {}),
      ...(target.scheme === 'https' ? { tls_config: target.verify ? { ca_file: `${SERVICE_ACCOUNT}/ca.crt` } : { insecure_skip_verify: true } } : {}),
      static_configs: [{ targets: [`127.0.0.1:${target.port}`] }],
    }];
  });
  return stringify({ global: { scrape_interval: '15s', scrape_timeout: '10s', evaluation_interval: '15s' }, scrape_configs: jobs });
}
