import { homedir, tmpdir } from 'node:os';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../util/errors.js';

/** Names users and other tools see; kwokctl's spelling so scripts keep working. */
export const DEFAULT_CLUSTER_NAME = 'kwok';
export const contextName = (cluster: string): string => `kwok-${cluster}`;

/** Cluster names become directory names, context names and (later) container names. */
export function validateClusterName(name: string): string {
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/.test(name)) {
    throw new UsageError(`invalid cluster name ${JSON.stringify(name)}`, {
      hint: 'use lowercase letters, digits and dashes, starting and ending with a letter or digit (max 63)',
    });
  }
  return name;
}

/** $KWOK_WORKDIR, else ~/.kwok, else <tmp>/kwok when there is no home directory (as kwokctl). */
export function resolveWorkdir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.KWOK_WORKDIR) return env.KWOK_WORKDIR;
  let home = '';
  try {
    home = homedir();
  } catch {
    home = '';
  }
  return home ? join(home, '.kwok') : join(tmpdir(), 'kwok');
}

/** Every file of a cluster lives under one directory; this is its map. */
export interface ClusterPaths {
  root: string;
  config: string;
  kubeconfig: string;
  /** kwokctl's in-network kubeconfig (`kubeconfig`): the apiserver by container name, for containers. */
  networkKubeconfig: string;
  pki: string;
  caCert: string;
  caKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
  frontProxyCaCert: string;
  frontProxyClientCert: string;
  frontProxyClientKey: string;
  /** etcd's CA and certificates (kubeadm's layout: pki/etcd/…, pki/apiserver-etcd-client.*). */
  etcdPki: string;
  etcdCaCert: string;
  /** Written for kind only, whose kubeadm signs its etcd's certificates with it. */
  etcdCaKey: string;
  etcdServerCert: string;
  etcdServerKey: string;
  etcdPeerCert: string;
  etcdPeerKey: string;
  /** The host's etcd client certificate (readiness, etcdctl, snapshots). */
  etcdClientCert: string;
  etcdClientKey: string;
  apiserverEtcdClientCert: string;
  apiserverEtcdClientKey: string;
  /** Prometheus' client certificate (system:monitoring). */
  prometheusCert: string;
  prometheusKey: string;
  etcdData: string;
  /** etcd's unix socket, the apiserver's way to it on the host (see etcdSocket in placement.ts). */
  etcdSocket: string;
  pids: string;
  logs: string;
  auditPolicy: string;
  auditLog: string;
  schedulerConfig: string;
  /** Objects of the kinds served as custom resources (--enable-crds), created once their CRDs are. */
  customResources: string;
  /** metrics-server's Service and APIService, applied once the apiserver serves. */
  metricsServerManifest: string;
  /** scheduler-plugins' CRDs and scheduler RBAC, as taken from its manifests. */
  schedulerPluginsManifest: string;
}

export function clustersDir(workdir: string): string {
  return join(workdir, 'clusters');
}

export function clusterPaths(workdir: string, name: string): ClusterPaths {
  const root = join(clustersDir(workdir), name);
  const pki = join(root, 'pki');
  const etcdPki = join(pki, 'etcd');
  return {
    root,
    config: join(root, 'kwok.yaml'),
    kubeconfig: join(root, 'kubeconfig.yaml'),
    networkKubeconfig: join(root, 'kubeconfig'),
    pki,
    caCert: join(pki, 'ca.crt'),
    caKey: join(pki, 'ca.key'),
    adminCert: join(pki, 'admin.crt'),
    adminKey: join(pki, 'admin.key'),
    serviceAccountKey: join(pki, 'sa.key'),
    serviceAccountPub: join(pki, 'sa.pub'),
    frontProxyCaCert: join(pki, 'front-proxy-ca.crt'),
    frontProxyClientCert: join(pki, 'front-proxy-client.crt'),
    frontProxyClientKey: join(pki, 'front-proxy-client.key'),
    etcdPki,
    etcdCaCert: join(etcdPki, 'ca.crt'),
    etcdCaKey: join(etcdPki, 'ca.key'),
    etcdServerCert: join(etcdPki, 'server.crt'),
    etcdServerKey: join(etcdPki, 'server.key'),
    etcdPeerCert: join(etcdPki, 'peer.crt'),
    etcdPeerKey: join(etcdPki, 'peer.key'),
    etcdClientCert: join(etcdPki, 'healthcheck-client.crt'),
    etcdClientKey: join(etcdPki, 'healthcheck-client.key'),
    apiserverEtcdClientCert: join(pki, 'apiserver-etcd-client.crt'),
    apiserverEtcdClientKey: join(pki, 'apiserver-etcd-client.key'),
    prometheusCert: join(pki, 'prometheus.crt'),
    prometheusKey: join(pki, 'prometheus.key'),
    etcdData: join(root, 'etcd'),
    etcdSocket: join(root, 'etcd.sock'),
    pids: join(root, 'pids'),
    logs: join(root, 'logs'),
    auditPolicy: join(root, 'audit.yaml'),
    auditLog: join(root, 'logs', 'audit.log'),
    schedulerConfig: join(root, 'scheduler.yaml'),
    customResources: join(root, 'crs.yaml'),
    metricsServerManifest: join(root, 'metrics-server.yaml'),
    schedulerPluginsManifest: join(root, 'scheduler-plugins.yaml'),
  };
}

export const pidFile = (paths: ClusterPaths, processName: string): string => join(paths.pids, `${processName}.pid`);
export const logFile = (paths: ClusterPaths, processName: string): string => join(paths.logs, `${processName}.log`);

/**
 * The mark (KWOKTS_OWNER) a cluster's host processes carry: the cluster directory and the
 * component. By it start finds a component left running without its pid file, and delete every
 * process of the cluster whatever state its record and directory are in.
 */
export const ownerMarker = (paths: ClusterPaths, component: string): string => `${ownerMarkerPrefix(paths)}${component}`;
/** What every owner marker of the cluster starts with. */
export const ownerMarkerPrefix = (paths: ClusterPaths): string => `${paths.root}#`;

/**
 * What a host process's pid and log files are named after: its executable's file name without
 * extension, as kwokctl's binary runtime names them (`pids/kube-apiserver.pid`), so either tool
 * finds the other's processes. Without an executable, the component's name.
 */
export function processName(component: string, executable: string | undefined): string {
  if (!executable) return component;
  const base = executable.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const name = dot > 0 ? base.slice(0, dot) : base;
  return name || component;
}

/** Label carried by every container and network a container runtime makes: ownership, for list and delete. */
export const CLUSTER_LABEL = 'io.kwokts.cluster';
/** kwokctl's label, so its tooling (and docker compose) sees the same project. */
export const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';
/** Containers, networks and kind clusters are named `kwok-<cluster>[-<component>]`, as kwokctl. */
export const runtimeObjectName = (cluster: string, component?: string): string => (component ? `kwok-${cluster}-${component}` : `kwok-${cluster}`);

/** Names of clusters that have a saved record, sorted. */
export function listClusterNames(workdir: string): string[] {
  const dir = clustersDir(workdir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(dir, e.name, 'kwok.yaml')))
    .map((e) => e.name)
    .sort();
}
