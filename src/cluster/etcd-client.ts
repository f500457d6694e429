/**
 * How the host's tools (`kwokts etcdctl`, `snapshot save`) reach a cluster's etcd, read from the
 * cluster's record rather than assumed: clusters made since etcd requires TLS record an `https`
 * port and get etcd's CA and the host's client certificate (pki/etcd/healthcheck-client.*);
 * clusters made before record a plain `http` port and keep being reached that way.
 */
import { OperationError } from '../util/errors.js';
import type { ClusterPaths } from '../naming/naming.js';
import type { ClusterRecord } from './record.js';

export interface EtcdClientArgs {
  endpoint: string;
  /** etcdctl's --cacert/--cert/--key, empty for a plain-HTTP etcd. */
  tlsArgs: string[];
}

export function etcdClientArgs(record: ClusterRecord, paths: ClusterPaths): EtcdClientArgs {
  const ports = record.components.find((c) => c.name === 'etcd')?.ports ?? [];
  const https = ports.find((p) => p.name === 'https');
  if (https) {
    return {
      endpoint: `https://127.0.0.1:${https.port}`,
      tlsArgs: [`--cacert=${paths.etcdCaCert}`, `--cert=${paths.etcdClientCert}`, `--key=${paths.etcdClientKey}`],
    };
  }
  const http = ports.find((p) => p.name === 'http');
  if (http) return { endpoint: `http://127.0.0.1:${http.port}`, tlsArgs: [] };
  throw new OperationError(`cluster ${record.name} has no etcd endpoint`, {
    hint: `its record (${paths.config}) lists no etcd port: a kind cluster made by an older kwokts, whose etcd is not published; recreate it`,
  });
}
