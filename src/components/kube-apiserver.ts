import type { ClusterSpec, Component, ComponentMount } from './component.js';
import { FRONT_PROXY_CLIENT } from '../naming/pki-names.js';
import { klogVerbosity } from './args.js';
import { imageOf } from './image.js';
import { etcdSocket, publishedPorts, listenAddress, listenPort, reach } from './placement.js';
import { kubeletAddressTypes } from './kwok-controller.js';
import { apiserverTracingConfig } from './jaeger.js';

export function buildKubeApiserver(spec: ClusterSpec): Component {
  const { ports, options, paths } = spec;
  const args = [
    `--etcd-prefix=${options.etcdPrefix}`,
    '--allow-privileged=true',
    // No kubelets and no kube-proxy: the default endpoint reconciler would only churn.
    '--endpoint-reconciler-type=none',
  ];
  if (options.kubeRuntimeConfig) args.push(`--runtime-config=${options.kubeRuntimeConfig}`);
  if (options.kubeFeatureGates) args.push(`--feature-gates=${options.kubeFeatureGates}`);
  if (!options.kubeAdmission) args.push('--enable-admission-plugins=', '--disable-admission-plugins=NamespaceLifecycle,LimitRanger,ServiceAccount,TaintNodesByCondition,PodSecurity,Priority,DefaultTolerationSeconds,DefaultStorageClass,StorageObjectInUseProtection,PersistentVolumeClaimResize,RuntimeClass,CertificateApproval,CertificateSigning,ClusterTrustBundleAttest,CertificateSubjectRestriction,DefaultIngressClass,MutatingAdmissionWebhook,ValidatingAdmissionPolicy,ValidatingAdmissionWebhook,ResourceQuota');
  if (options.disableQPSLimits) {
    args.push('--max-requests-inflight=0', '--max-mutating-requests-inflight=0', '--enable-priority-and-fairness=false');
  }
  // On the host, etcd's unix socket (see etcdSocket); elsewhere TLS, where etcd requires a client
  // certificate from its own CA (see etcd.ts).
  const socket = etcdSocket(spec);
  if (socket) args.push(`--etcd-servers=unix://${socket}`);
  else {
    args.push(
      `--etcd-servers=https://${reach(spec, 'etcd', 'etcd')}`,
      `--etcd-cafile=${paths.etcdCaCert}`,
      `--etcd-certfile=${paths.apiserverEtcdClientCert}`,
      `--etcd-keyfile=${paths.apiserverEtcdClientKey}`,
    );
  }
  if (options.kubeAuthorization) args.push('--authorization-mode=Node,RBAC');
  args.push(
    `--bind-address=${listenAddress(spec)}`,
    `--secure-port=${listenPort(spec, 'kubeApiserver')}`,
    `--tls-cert-file=${paths.adminCert}`,
    `--tls-private-key-file=${paths.adminKey}`,
    `--client-ca-file=${paths.caCert}`,
    `--service-account-key-file=${paths.serviceAccountPub}`,
    `--service-account-signing-key-file=${paths.serviceAccountKey}`,
    '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
    // The aggregation layer gets its own CA (see FrontProxyPki for why not the cluster CA).
    `--proxy-client-key-file=${paths.frontProxyClientKey}`,
    `--proxy-client-cert-file=${paths.frontProxyClientCert}`,
    `--requestheader-client-ca-file=${paths.frontProxyCaCert}`,
    `--requestheader-allowed-names=${FRONT_PROXY_CLIENT}`,
    '--requestheader-username-headers=X-Remote-User',
    '--requestheader-group-headers=X-Remote-Group',
    '--requestheader-extra-headers-prefix=X-Remote-Extra-',
    // The "kubelet" behind `kubectl logs` is the kwok controller, serving TLS with the cluster's
    // certificate: verify it against the cluster CA (without this flag the apiserver would not
    // verify it at all), present the admin certificate (the controller serves logs, exec, attach
    // and port-forward to system:masters only), and dial the address kind that reaches it.
    `--kubelet-certificate-authority=${paths.caCert}`,
    `--kubelet-client-certificate=${paths.adminCert}`,
    `--kubelet-client-key=${paths.adminKey}`,
    `--kubelet-preferred-address-types=${kubeletAddressTypes(spec)}`,
  );
  const mounts: ComponentMount[] = [{ path: paths.pki, readOnly: true }];
  if (options.kubeAuditPolicy) {
    args.push(`--audit-policy-file=${paths.auditPolicy}`, `--audit-log-path=${paths.auditLog}`);
    mounts.push({ path: paths.auditPolicy, readOnly: true }, { path: paths.logs, readOnly: false });
  }
  const tracing = spec.components.includes('jaeger') ? apiserverTracingConfig(spec) : undefined;
  if (tracing) {
    args.push(`--tracing-config-file=${tracing.path}`);
    mounts.push({ path: tracing.path, readOnly: true });
  }
  args.push(...klogVerbosity(spec.logLevel));
  return {
    name: 'kube-apiserver',
    program: { artifact: 'kube-apiserver' },
    args,
    env: {},
    links: tracing ? ['etcd', 'jaeger'] : ['etcd'],
    ...(tracing ? { files: [tracing] } : {}),
    // The apiserver waits for etcd by itself; starting both at once saves etcd's start-up time.
    retriesLinks: true,
    ports: publishedPorts(spec, 'kube-apiserver'),
    probe: { scheme: 'https', port: ports.kubeApiserver, path: '/readyz', clientCert: true },
    mounts,
    ...imageOf(spec, 'kube-apiserver'),
  };
}
