import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../../src/util/errors.js';
import { LogLevel } from '../../../../src/util/log.js';
import { loadKwokConfigFiles } from '../../../../src/kwok/app/config-file.js';
import { parseKwokArgs, resolveKwokOptions } from '../../../../src/kwok/app/options.js';

function resolve(argv: string[], config = {}) {
  return resolveKwokOptions(parseKwokArgs(argv), config, []);
}

describe('kwok flags', () => {
  it('accepts --flag=value, --flag value, short forms and Go booleans', () => {
    const flags = parseKwokArgs(['--manage-all-nodes=true', '--cidr', '10.1.0.0/16', '-c', 'a.yaml', '--config=b.yaml', '-v=DEBUG', '--node-port=10247']);
    assert.deepEqual(flags.get('manage-all-nodes'), ['true']);
    assert.deepEqual(flags.get('config'), ['a.yaml', 'b.yaml']);
    const options = resolveKwokOptions(flags, {}, ['a.yaml', 'b.yaml']);
    assert.deepEqual(options.manageMode, { kind: 'all' });
    assert.equal(options.cidr, '10.1.0.0/16');
    assert.equal(options.logLevel, LogLevel.DEBUG);
    assert.equal(options.nodePort, 10247);
    assert.equal(resolve(['--manage-all-nodes', '--v', '-4']).logLevel, -4);
    assert.deepEqual(resolve(['--manage-all-nodes=T']).manageMode, { kind: 'all' });
  });

  it('uses kwok defaults', () => {
    const options = resolve(['--manage-all-nodes']);
    assert.equal(options.cidr, '10.0.0.1/24');
    assert.equal(options.nodeIP, '196.168.0.1');
    assert.equal(options.nodeLeaseDurationSeconds, 0);
    assert.equal(options.nodeLeaseParallelism, 16);
    assert.equal(options.podPlayStageParallelism, 16);
    assert.match(options.id, /_[0-9a-f-]{36}$/);
    assert.equal(resolve(['--manage-all-nodes', '--id', 'fixed']).id, 'fixed');
  });

  it('takes its identity from $KWOKTS_CONTROLLER_ID (how kwokts gives it, since Go kwok has no --id), the flag winning', () => {
    const flags = parseKwokArgs(['--manage-all-nodes']);
    assert.equal(resolveKwokOptions(flags, {}, [], { KWOKTS_CONTROLLER_ID: 'kwok-c1-controller' }).id, 'kwok-c1-controller');
    assert.equal(resolveKwokOptions(parseKwokArgs(['--manage-all-nodes', '--id=mine']), {}, [], { KWOKTS_CONTROLLER_ID: 'kwok-c1-controller' }).id, 'mine');
    assert.match(resolveKwokOptions(flags, {}, [], { KWOKTS_CONTROLLER_ID: '' }).id, /_[0-9a-f-]{36}$/);
  });

  it('requires exactly one manage mode', () => {
    const bad: [string[], RegExp][] = [
      [[], /no nodes are managed/],
      [['--manage-all-nodes', '--manage-single-node=n1'], /conflicts/],
      [['--manage-all-nodes', '--manage-nodes-with-label-selector=a=b'], /conflicts/],
      [['--manage-single-node=n1', '--manage-nodes-with-annotation-selector=a=b'], /conflicts/],
      [['--manage-all-nodes=false'], /no nodes are managed/],
    ];
    for (const [argv, message] of bad) assert.throws(() => resolve(argv), (e: unknown) => e instanceof UsageError && message.test(e.message), argv.join(' '));
    assert.deepEqual(resolve(['--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake']).manageMode, { kind: 'annotation-selector', selector: 'kwok.x-k8s.io/node=fake' });
    assert.deepEqual(resolve(['--manage-single-node', 'n1']).manageMode, { kind: 'single', nodeName: 'n1' });
  });

  it('rejects bad values with usage errors', () => {
    const bad: string[][] = [
      ['--manage-all-nodes=maybe'],
      ['--manage-all-nodes', '--node-port=abc'],
      ['--manage-all-nodes', '--cidr=10.0.0.0'],
      ['--manage-all-nodes', '--enable-crds=Widget'],
      ['--manage-all-nodes', '--tls-cert-file=a.crt'],
      ['--manage-all-nodes', '-v', 'LOUD'],
      ['--manage-all-nodes', '--unknown'],
      ['--manage-all-nodes', 'positional'],
      ['--manage-all-nodes', '--kubeconfig'],
    ];
    for (const argv of bad) assert.throws(() => resolve(argv), UsageError, argv.join(' '));
  });

  it('refuses at start a selector, node name or server address the apiserver or the listener would refuse later', () => {
    const bad: [string[], RegExp][] = [
      [['--manage-nodes-with-label-selector', '!!bad=('], /^--manage-nodes-with-label-selector: .*"!bad=\(" is not a valid label key/],
      [['--manage-nodes-with-annotation-selector', 'a=b c'], /^--manage-nodes-with-annotation-selector: .*"b c" is not a valid label value/],
      [['--manage-all-nodes', '--disregard-status-with-label-selector', 'a in (x'], /^--disregard-status-with-label-selector: /],
      [['--manage-all-nodes', '--disregard-status-with-annotation-selector', '-x'], /^--disregard-status-with-annotation-selector: /],
      [['--manage-single-node', 'node,other'], /^--manage-single-node: "node,other" is not a valid node name/],
      [['--manage-all-nodes', '--server-address', '127.0.0.1:99999'], /^--server-address: "127\.0\.0\.1:99999": port 99999 is not in 0-65535$/],
      [['--manage-all-nodes', '--server-address', 'bad host:8080'], /^--server-address: "bad host:8080": "bad host" is not a host name or IP address$/],
      [['--manage-all-nodes', '--server-address', '127.0.0.1'], /^--server-address: "127\.0\.0\.1" has no port/],
      [['--manage-all-nodes', '--server-address', '::1:8080'], /^--server-address: .*brackets/],
    ];
    for (const [argv, message] of bad) {
      assert.throws(() => resolve(argv), (e: unknown) => e instanceof UsageError && message.test(e.message) && !e.message.includes('\n'), argv.join(' '));
    }
    // From a config file, the error names the field there rather than a flag that was not given.
    assert.throws(() => resolve([], { manageNodesWithLabelSelector: '!!bad=(' }), (e: unknown) => e instanceof UsageError && /^KwokConfiguration options\.manageNodesWithLabelSelector: /.test(e.message));
    assert.throws(() => resolve(['--manage-all-nodes'], { serverAddress: ':70000' }), (e: unknown) => e instanceof UsageError && /^KwokConfiguration options\.serverAddress: /.test(e.message));
    for (const address of [':10247', '0.0.0.0:0', '[::1]:8080', 'localhost:10247', '']) assert.equal(resolve(['--manage-all-nodes', `--server-address=${address}`]).serverAddress, address);
    assert.deepEqual(resolve(['--manage-single-node', 'kwok-node-0.example']).manageMode, { kind: 'single', nodeName: 'kwok-node-0.example' });
  });

  it('leader election: off by default, client-go timings, kube component flag names', () => {
    assert.deepEqual(resolve(['--manage-all-nodes']).leaderElection, {
      enabled: false,
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      resourceName: 'kwok-controller',
      resourceNamespace: undefined,
    });
    const custom = resolve([
      '--manage-all-nodes',
      '--leader-elect',
      '--leader-elect-lease-duration=6s',
      '--leader-elect-renew-deadline',
      '4s',
      '--leader-elect-retry-period=500ms',
      '--leader-elect-resource-name=mine',
      '--leader-elect-resource-namespace=kwok',
    ]).leaderElection;
    assert.deepEqual(custom, { enabled: true, leaseDurationMs: 6_000, renewDeadlineMs: 4_000, retryPeriodMs: 500, resourceName: 'mine', resourceNamespace: 'kwok' });
    assert.throws(() => resolve(['--manage-all-nodes', '--leader-elect-lease-duration=15']), (e: Error) => e instanceof UsageError && /not a duration/.test(e.message));
    assert.throws(
      () => resolve(['--manage-all-nodes', '--leader-elect', '--leader-elect-lease-duration=5s']),
      (e: Error) => e instanceof UsageError && /--leader-elect: the lease duration must be greater than the renew deadline/.test(e.message),
    );
  });

  it('splits --enable-crds on commas and across repeats', () => {
    assert.deepEqual(resolve(['--manage-all-nodes', '--enable-crds=Stage,Metric', '--enable-crds', 'Logs']).enableCRDs, ['Stage', 'Metric', 'Logs']);
  });

  it('takes KwokConfiguration options from config files, flags winning', () => {
    const files = loadKwokConfigFiles(['kwok.yaml'], () =>
      [
        'apiVersion: config.kwok.x-k8s.io/v1alpha1',
        'kind: KwokConfiguration',
        'options:',
        '  manageAllNodes: true',
        '  cidr: 10.9.0.0/16',
        '  nodeLeaseDurationSeconds: 40',
        '  podPlayStageParallelism: 8',
        '---',
        'kind: KwokctlConfiguration',
        'options: {runtime: binary}',
        '---',
        'apiVersion: kwok.x-k8s.io/v1alpha1',
        'kind: Stage',
        'metadata: {name: node-initialize}',
        'spec: {resourceRef: {kind: Node}, selector: {}}',
      ].join('\n'),
    );
    assert.equal(files.stages.length, 1);
    assert.deepEqual(files.skippedKinds, ['KwokctlConfiguration']);
    const options = resolveKwokOptions(parseKwokArgs(['--cidr=10.8.0.0/16']), files.options, ['kwok.yaml']);
    assert.deepEqual(options.manageMode, { kind: 'all' });
    assert.equal(options.cidr, '10.8.0.0/16');
    assert.equal(options.nodeLeaseDurationSeconds, 40);
    assert.equal(options.podPlayStageParallelism, 8);
  });

  it('reports config errors with the file name', () => {
    assert.throws(() => loadKwokConfigFiles(['x.yaml'], () => 'kind: KwokConfiguration\noptions:\n  nodePort: high\n'), /x\.yaml: KwokConfiguration options\.nodePort/);
    assert.throws(() => loadKwokConfigFiles(['y.yaml'], () => 'a: [\n'), /y\.yaml/);
  });
});
