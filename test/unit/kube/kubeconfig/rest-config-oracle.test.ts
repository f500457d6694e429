/**
 * Our kubeconfig reader against @kubernetes/client-node's KubeConfig (a dev-only oracle, as jq-web
 * is for jq): the same files must give the same server, TLS material and credentials.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RequestOptions } from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { readRestConfig } from '../../../../src/kube/kubeconfig/rest-config.js';
import { readCredentials } from '../../../../src/kube/client/credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'kwokts-oracle-'));
mkdirSync(join(dir, 'pki'));
writeFileSync(join(dir, 'pki', 'ca.crt'), 'CA-FILE');
writeFileSync(join(dir, 'pki', 'client.crt'), 'CERT-FILE');
writeFileSync(join(dir, 'pki', 'client.key'), 'KEY-FILE');
const b64 = (s: string): string => Buffer.from(s).toString('base64');

const users: Record<string, string> = {
  'cert files': '{client-certificate: pki/client.crt, client-key: pki/client.key}',
  'cert data': `{client-certificate-data: ${b64('CERT-DATA')}, client-key-data: ${b64('KEY-DATA')}}`,
  token: '{token: abc.def}',
  basic: '{username: alice, password: s3cret}',
  none: '{}',
};
const clusters: Record<string, string> = {
  'ca file': '{server: "https://127.0.0.1:6443", certificate-authority: pki/ca.crt}',
  'ca data': `{server: "https://10.0.0.1:443", certificate-authority-data: ${b64('CA-DATA')}}`,
  insecure: '{server: "https://example.invalid:6443", insecure-skip-tls-verify: true}',
};

const text = (v: unknown): string | undefined => (v === undefined ? undefined : Buffer.isBuffer(v) ? v.toString() : String(v));

for (const [clusterName, cluster] of Object.entries(clusters)) {
  for (const [userName, user] of Object.entries(users)) {
    test(`${clusterName} + ${userName}: same as client-node`, async () => {
      const file = join(dir, `${clusterName}-${userName}.yaml`.replace(/ /g, '_'));
      writeFileSync(file, `apiVersion: v1\nkind: Config\ncurrent-context: other\ncontexts:\n- {name: other, context: {cluster: c, user: nobody}}\n- {name: main, context: {cluster: c, user: u}}\nclusters:\n- {name: c, cluster: ${cluster}}\nusers:\n- {name: u, user: ${user}}\n- {name: nobody, user: {}}\n`);
      const oracle = new KubeConfig();
      oracle.loadFromFile(file);
      oracle.setCurrentContext('main');
      const options: RequestOptions = {};
      await oracle.applyToHTTPSOptions(options);
      const ours = readRestConfig(file, 'main');
      assert.equal(ours.server.href, new URL(oracle.getCurrentCluster()!.server).href);
      assert.equal(text(ours.tls.ca), text(options.ca));
      assert.equal(text(ours.tls.cert), text(options.cert));
      assert.equal(text(ours.tls.key), text(options.key));
      assert.equal(ours.tls.rejectUnauthorized ?? true, options.rejectUnauthorized ?? true);
      const headers = (await readCredentials(ours.credentials)).headers;
      // client-node sets headers as an object (never the raw [name, value, ...] array form).
      const expected = (options.headers as Record<string, string | undefined> | undefined)?.Authorization ?? (options.auth ? `Basic ${b64(options.auth)}` : undefined);
      assert.equal(headers.Authorization, expected);
    });
  }
}
