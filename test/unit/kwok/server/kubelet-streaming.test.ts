/**
 * The kubelet's exec, attach and port-forward over SPDY, in process: a real server with the
 * streaming routes, a small SPDY client in kube-apiserver's part, real local commands.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addStreamingDocument, emptyStreamingRules } from '../../../../src/kwok/api/streaming-schema.js';
import type { StreamingRules } from '../../../../src/kwok/api/streaming-schema.js';
import { startKwokServer } from '../../../../src/kwok/server/http-server.js';
import type { RunningServer } from '../../../../src/kwok/server/http-server.js';
import { kubeletStreamingRoutes } from '../../../../src/kwok/server/kubelet-streaming.js';
import { silentLogger } from '../../../../src/util/log.js';
import { SpdyTestClient } from './spdy/spdy-test-client.js';

const V4 = 'v4.channel.k8s.io';

describe('kubelet streaming routes', () => {
  let server: RunningServer;
  let echo: net.Server;
  let echoPort = 0;
  let dir = '';
  let attachFile = '';
  let rules: StreamingRules = emptyStreamingRules();

  function configure(...docs: Array<[Parameters<typeof addStreamingDocument>[1], unknown]>): void {
    rules = emptyStreamingRules();
    for (const [kind, doc] of docs) addStreamingDocument(rules, kind, doc);
  }

  async function exec(path: string, opened: Array<[string, boolean?]>, protocols = [V4]): Promise<{ client: SpdyTestClient; ids: Record<string, number> }> {
    const client = await SpdyTestClient.connect(server.address.port, path, protocols);
    const ids: Record<string, number> = {};
    for (const [type] of opened) ids[type] = await client.open({ streamtype: [type] });
    return { client, ids };
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kwokts-streaming-'));
    attachFile = join(dir, 'attach.log');
    writeFileSync(attachFile, '2024-01-01T00:00:00Z stdout F already there\n');
    echo = net.createServer((socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    echoPort = (echo.address() as net.AddressInfo).port;
    server = await startKwokServer({
      listen: { host: '127.0.0.1', port: 0 },
      renderMetrics: () => '',
      upgradeRoutes: kubeletStreamingRoutes({ rules: () => rules, logger: silentLogger }),
      logger: silentLogger,
    });
  });
  after(async () => {
    await server.close();
    echo.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('exec: stdout, stderr and the exit code as a v4 Status, then GOAWAY and close', async () => {
    configure(['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [{ local: {} }] } }]);
    const cmd = ['sh', '-c', 'echo out; echo err >&2; exit 3'].map((c) => `command=${encodeURIComponent(c)}`).join('&');
    const { client, ids } = await exec(`/exec/default/pod0/app?${cmd}&output=1&error=1`, [['error'], ['stdout'], ['stderr']]);
    assert.match(client.response, /^HTTP\/1.1 101/);
    assert.match(client.response, /X-Stream-Protocol-Version: v4.channel.k8s.io/);
    await client.until(() => client.closed);
    assert.equal(client.text(ids.stdout!), 'out\n');
    assert.equal(client.text(ids.stderr!), 'err\n');
    const status = JSON.parse(client.text(ids.error!)) as { status: string; reason: string; details: { causes: Array<{ reason: string; message: string }> } };
    assert.equal(status.status, 'Failure');
    assert.equal(status.reason, 'NonZeroExitCode');
    assert.deepEqual(status.details.causes, [{ reason: 'ExitCode', message: '3' }]);
    assert.ok(client.goAway);
    assert.ok([...client.streams.values()].every((s) => s.replied));
  });

  it('exec: stdin reaches the command; envs and workDir apply; success is a Success Status', async () => {
    configure(['Exec', { metadata: { name: 'pod0', namespace: 'default' }, spec: { execs: [{ containers: ['app'], local: { workDir: dir, envs: [{ name: 'TEST_ENV', value: 'test' }] } }] } }]);
    const cmd = ['sh', '-c', 'cat; echo "$TEST_ENV"; pwd'].map((c) => `command=${encodeURIComponent(c)}`).join('&');
    const { client, ids } = await exec(`/exec/default/pod0/app?${cmd}&input=1&output=1&error=1`, [['error'], ['stdin'], ['stdout'], ['stderr']]);
    client.send(ids.stdin!, 'from stdin\n', true);
    await client.until(() => client.closed);
    assert.equal(client.text(ids.stdout!), `from stdin\ntest\n${dir}\n`);
    assert.deepEqual(JSON.parse(client.text(ids.error!)), { status: 'Success' });
  });

  it('exec: no Exec or ClusterExec matches: kwok\'s error as an internal error', async () => {
    configure(['Exec', { metadata: { name: 'other', namespace: 'default' }, spec: { execs: [{ local: {} }] } }]);
    const { client, ids } = await exec('/exec/default/pod0/app?command=true&output=1', [['error'], ['stdout']]);
    await client.until(() => client.closed);
    const status = JSON.parse(client.text(ids.error!)) as { message: string; code: number };
    assert.equal(status.message, 'Internal error occurred: error executing command in container: no exec found for container "app" in pod "default/pod0"');
    assert.equal(status.code, 500);
  });

  it('exec: a command that cannot start is an internal error naming it', async () => {
    configure(['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [{ local: {} }] } }]);
    const { client, ids } = await exec('/exec/default/pod0/app?command=no-such-command-kwokts&output=1', [['error'], ['stdout']]);
    await client.until(() => client.closed);
    assert.match(client.text(ids.error!), /exec: \\"no-such-command-kwokts\\": executable file not found in \$PATH/);
  });

  it('exec -t: a program that is not there is the same error as without a terminal', async () => {
    configure(['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [{ local: {} }] } }]);
    const { client, ids } = await exec('/exec/default/pod0/app?command=no-such-command-kwokts&input=1&output=1&tty=1', [['error'], ['stdin'], ['stdout'], ['resize']]);
    await client.until(() => client.closed);
    assert.match(client.text(ids.error!), /cmd start: no-such-command-kwokts : exec: \\"no-such-command-kwokts\\": executable file not found in \$PATH/);
  });

  it('exec before v4: the failure as plain text on the error stream', async () => {
    configure();
    const { client, ids } = await exec('/exec/default/pod0/app?command=true&output=1', [['error'], ['stdout']], ['v3.channel.k8s.io']);
    await client.until(() => client.closed);
    assert.equal(client.text(ids.error!), 'Internal error occurred: error executing command in container: no exec found for container "app" in pod "default/pod0"');
  });

  it('exec -t: a terminal that follows resize events', async () => {
    configure(['ClusterExec', { metadata: { name: 'all' }, spec: { execs: [{ local: {} }] } }]);
    const cmd = ['sh', '-c', 'while read line; do [ "$line" = quit ] && exit 0; stty size; done'].map((c) => `command=${encodeURIComponent(c)}`).join('&');
    const { client, ids } = await exec(`/exec/default/pod0/app?${cmd}&input=1&output=1&tty=1`, [['error'], ['stdin'], ['stdout'], ['resize']]);
    client.send(ids.resize!, '{"Width":100,"Height":30}\n');
    // The resize and the input travel on different streams: ask again until the new size shows.
    while (!client.text(ids.stdout!).includes('30 100')) {
      client.send(ids.stdin!, 'size\n');
      await new Promise((r) => setTimeout(r, 50));
    }
    client.send(ids.stdin!, 'quit\n');
    await client.until(() => client.closed);
    assert.deepEqual(JSON.parse(client.text(ids.error!)), { status: 'Success' });
  });

  it('attach: lines appended to the logsFile after attaching, not those before', async () => {
    configure(['ClusterAttach', { metadata: { name: 'all' }, spec: { attaches: [{ logsFile: attachFile }] } }]);
    const { client, ids } = await exec('/attach/default/pod0/app?output=1&error=1', [['error'], ['stdout'], ['stderr']]);
    while (!client.text(ids.stdout!).includes('appended')) {
      appendFileSync(attachFile, '2024-01-01T00:00:01Z stdout F appended\n');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.doesNotMatch(client.text(ids.stdout!), /already there/);
    assert.match(client.text(ids.stdout!), /^(appended\n)+$/);
    client.close();
  });

  it('attach: no ClusterAttach matches: kwok\'s error', async () => {
    configure(['ClusterAttach', { metadata: { name: 'elsewhere' }, spec: { selector: { matchNamespaces: ['other'] }, attaches: [{ logsFile: attachFile }] } }]);
    const { client, ids } = await exec('/attach/default/pod0/app?output=1', [['error'], ['stdout']]);
    await client.until(() => client.closed);
    assert.match(client.text(ids.error!), /error attaching to container: no attaches found for container \\"app\\" in pod \\"default\/pod0\\"/);
  });

  it('refuses an upgrade without a protocol (400) or with none in common (403)', async () => {
    const none = await SpdyTestClient.connect(server.address.port, '/exec/default/pod0/app?command=true&output=1', []);
    assert.match(none.response, /^HTTP\/1.1 400/);
    assert.match(none.response, /header X-Stream-Protocol-Version does not exist/);
    none.close();
    const other = await SpdyTestClient.connect(server.address.port, '/exec/default/pod0/app?command=true&output=1', ['v9.channel.k8s.io']);
    assert.match(other.response, /^HTTP\/1.1 403/);
    assert.match(other.response, /X-Accepted-Stream-Protocol-Versions: v4.channel.k8s.io/);
    other.close();
    const noChannel = await SpdyTestClient.connect(server.address.port, '/exec/default/pod0/app?command=true', [V4]);
    assert.match(noChannel.response, /you must specify at least 1 of stdin, stdout, stderr/);
    noChannel.close();
  });

  it('answers an upgrade to another path with 404', async () => {
    const client = await SpdyTestClient.connect(server.address.port, '/run/default/pod0/app', [V4]);
    assert.match(client.response, /^HTTP\/1.1 404/);
    client.close();
  });

  it('answers a plain request to /exec/ with 400, not 405', async () => {
    const res = await fetch(`http://127.0.0.1:${server.address.port}/exec/default/pod0/app?command=true`, { method: 'POST' });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /unable to upgrade/);
  });

  describe('port-forward', () => {
    async function forward(port: number, payload: string): Promise<{ client: SpdyTestClient; error: number; data: number }> {
      const client = await SpdyTestClient.connect(server.address.port, '/portForward/default/pod0', ['portforward.k8s.io']);
      assert.match(client.response, /^HTTP\/1.1 101/);
      const error = await client.open({ streamtype: ['error'], port: [String(port)], requestid: ['0'] });
      const data = await client.open({ streamtype: ['data'], port: [String(port)], requestid: ['0'] });
      client.send(data, payload, true);
      return { client, error, data };
    }

    it('joins the data stream to the target address', async () => {
      configure(['PortForward', { metadata: { name: 'pod0', namespace: 'default' }, spec: { forwards: [{ ports: [80], target: { address: '127.0.0.1', port: echoPort } }] } }]);
      const { client, error, data } = await forward(80, 'ping over tcp');
      await client.until(() => client.streams.get(data)!.finished && client.streams.get(error)!.finished);
      assert.equal(client.text(data), 'ping over tcp');
      assert.equal(client.text(error), '');
      client.close();
    });

    it('runs the command with the connection as its stdio', async () => {
      configure(['ClusterPortForward', { metadata: { name: 'all' }, spec: { forwards: [{ command: ['tr', 'a-z', 'A-Z'] }] } }]);
      const { client, data } = await forward(8080, 'shout');
      await client.until(() => client.streams.get(data)!.finished);
      assert.equal(client.text(data), 'SHOUT');
      client.close();
    });

    it('writes kwok\'s error for a port nothing forwards and resets the streams', async () => {
      configure(['PortForward', { metadata: { name: 'pod0', namespace: 'default' }, spec: { forwards: [{ ports: [80], target: { address: '127.0.0.1', port: echoPort } }] } }]);
      const { client, error, data } = await forward(81, 'x');
      await client.until(() => client.streams.get(data)!.reset);
      assert.equal(client.text(error), 'error forwarding port 81 to pod pod0/default, uid : forward not found for port 81 in pod "default/pod0"');
      client.close();
    });
  });
});
