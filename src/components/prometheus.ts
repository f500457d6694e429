import { join } from 'node:path';
import { renderYamlDocuments } from '../gocompat/yaml/index.js';
import type { ClusterPorts, ClusterSpec, Component, ComponentName } from './component.js';
import { imageOf } from './image.js';
import { PORT_TABLE } from './ports.js';
import { publishedPorts, listenAddress, listenPort, reach } from './placement.js';
import { schedulerPluginsMetricsTarget } from './scheduler-plugins.js';

interface ScrapeTarget {
  component: ComponentName;
  scheme: 'http' | 'https';
  port: keyof ClusterPorts;
}

/**
 * Prometheus scraping every component of the cluster, like kwokctl's: one job per component.
 * The https ones (apiserver, controller-manager, scheduler, kwok controller) are scraped with
 * Prometheus' own client certificate (CN kwok-prometheus, O system:monitoring: Kubernetes'
 * bootstrap RBAC, and the controller's server, let that group read /metrics and nothing else),
 * not the admin's. etcd is scraped on its plain
 * /metrics listener (see etcd.ts), which needs no certificate and exposes no data. The
 * apiserver's certificate is verified against the cluster CA; the controller-manager and the
 * scheduler serve self-signed certificates, so verification is off for those (as kwokctl does),
 * and for the controller, which may be a user's Go kwok serving another certificate.
 */
export function buildPrometheus(spec: ClusterSpec): Component {
  const { ports, paths } = spec;
  const enabled = new Set(spec.components);
  // The table's scrape targets (jaeger serves no /metrics on its query port; kwokctl does not scrape it either).
  const candidates: ScrapeTarget[] = PORT_TABLE.flatMap((p) => ('scrape' in p ? [{ component: p.component, scheme: p.scrape, port: p.key }] : []));
  const targets = candidates.filter((t) => enabled.has(t.component) && (ports[t.port] ?? 0) > 0);
  const configFile = join(paths.root, 'prometheus.yaml');
  // scheduler-plugins' controller publishes no port (see scheduler-plugins.ts): scraped where it listens.
  const schedulerPlugins = enabled.has('scheduler-plugins') ? schedulerPluginsMetricsTarget(spec) : undefined;
  const config = {
    global: { scrape_interval: '15s', scrape_timeout: '10s', evaluation_interval: '15s' },
    scrape_configs: [
      ...targets.map((t) => ({
        job_name: t.component,
        scheme: t.scheme,
        metrics_path: '/metrics',
        honor_timestamps: true,
        follow_redirects: true,
        ...(t.scheme === 'https' ? { tls_config: tlsConfig(spec, t.component) } : {}),
        static_configs: [{ targets: [reach(spec, t.component, t.port)] }],
      })),
      ...(schedulerPlugins === undefined
        ? []
        : [{ job_name: 'scheduler-plugins', scheme: 'http', metrics_path: '/metrics', honor_timestamps: true, follow_redirects: true, static_configs: [{ targets: [schedulerPlugins] }] }]),
    ],
  };
  const logLevel = spec.logLevel < 0 ? 'debug' : spec.logLevel < 4 ? 'info' : spec.logLevel < 8 ? 'warn' : 'error';
  return {
    name: 'prometheus',
    program: { artifact: 'prometheus' },
    args: [
      `--config.file=${configFile}`,
      `--web.listen-address=${listenAddress(spec)}:${listenPort(spec, 'prometheus')}`,
      `--storage.tsdb.path=${join(paths.root, 'prometheus')}`,
      `--log.level=${logLevel}`,
    ],
    env: {},
    // The control plane only, as kwokctl links it: prometheus and metrics-server start (and stop)
    // in the same group, in that order; metrics-server is simply scraped once it is up.
    links: targets.map((t) => t.component).filter((c) => c !== 'prometheus' && c !== 'metrics-server' && c !== 'jaeger'),
    // Targets that are not up yet are simply scraped again later.
    retriesLinks: true,
    ports: publishedPorts(spec, 'prometheus'),
    probe: { scheme: 'http', port: ports.prometheus, path: '/-/ready', clientCert: false },
    files: [{ path: configFile, content: renderYamlDocuments([config]) }],
    mounts: [
      { path: configFile, readOnly: true },
      { path: paths.pki, readOnly: true },
      { path: join(paths.root, 'prometheus'), readOnly: false },
    ],
    ...imageOf(spec, 'prometheus'),
    runAsFileOwner: true,
  };
}

function tlsConfig(spec: ClusterSpec, component: ComponentName): Record<string, string | boolean> {
  const { paths } = spec;
  const client = { cert_file: paths.prometheusCert, key_file: paths.prometheusKey };
  return component === 'kube-apiserver' ? { ...client, ca_file: paths.caCert } : { ...client, insecure_skip_verify: true };
}
