import { join } from 'node:path';
import type { ClusterSpec, Component } from './component.js';
import { imageOf } from './image.js';
import { publishedPorts, listenAddress, listenPort, placementOf, reach } from './placement.js';

/**
 * jaeger all-in-one as kwokctl runs it: its UI and query API on --jaeger-port, and an OTLP gRPC
 * collector the apiserver sends its traces to (on loopback for host processes).
 */
export function buildJaeger(spec: ClusterSpec): Component {
  const onHost = placementOf(spec).kind === 'host';
  const args = [
    '--collector.otlp.enabled=true',
    `--query.http-server.host-port=${listenAddress(spec)}:${listenPort(spec, 'jaeger')}`,
    `--collector.otlp.grpc.host-port=${onHost ? '127.0.0.1' : listenAddress(spec)}:${listenPort(spec, 'jaegerOtlpGrpc')}`,
  ];
  if (onHost) {
    // jaeger also opens its admin, gRPC/HTTP collector, OTLP HTTP and query gRPC servers on fixed
    // ports of every interface (14269, 14250, 14268, 4318, 16685): a second cluster's jaeger, or
    // anything else there, would stop it starting. Nothing uses them: loopback, any free port.
    for (const flag of ['admin.http', 'collector.grpc-server', 'collector.http-server', 'collector.otlp.http', 'query.grpc-server']) args.push(`--${flag}.host-port=127.0.0.1:0`);
  }
  if (spec.logLevel !== 0) args.push(`--log-level=${spec.logLevel < 0 ? 'debug' : spec.logLevel < 4 ? 'info' : spec.logLevel < 8 ? 'warn' : 'error'}`);
  return {
    name: 'jaeger',
    program: { artifact: 'jaeger' },
    // In a container, the image's own entrypoint, as kwokctl has it: jaegertracing/all-in-one runs
    // /go/bin/all-in-one-linux and has no `jaeger` to name instead (an image FROM scratch).
    command: [],
    args,
    env: {},
    links: [],
    ports: publishedPorts(spec, 'jaeger'),
    probe: { scheme: 'http', port: spec.ports.jaeger, path: '/api/services', clientCert: false },
    ...imageOf(spec, 'jaeger'),
  };
}

/** The apiserver's tracing configuration when jaeger runs: every request sampled, sent over OTLP gRPC. */
export function apiserverTracingConfig(spec: ClusterSpec): { path: string; content: string } {
  return {
    path: join(spec.paths.root, 'apiserver-tracing-config.yaml'),
    content: [
      'apiVersion: apiserver.config.k8s.io/v1alpha1',
      'kind: TracingConfiguration',
      `endpoint: ${reach(spec, 'jaeger', 'jaegerOtlpGrpc')}`,
      'samplingRatePerMillion: 1000000',
      '',
    ].join('\n'),
  };
}
