/**
 * How kube-controller-manager and kube-scheduler decide who may read their secure port, as
 * kubeadm configures them. Only /healthz, /readyz and /livez are open (their default, so
 * readiness checks need no credentials); /metrics and everything else need an authenticated
 * caller the apiserver authorizes:
 * - client certificates are verified against the cluster CA (--client-ca-file), and bearer
 *   tokens through the apiserver's TokenReview (--authentication-kubeconfig);
 * - the decision is the apiserver's, through SubjectAccessReview (--authorization-kubeconfig);
 *   system:masters is always allowed without asking. With RBAC on (the default) an anonymous
 *   request is refused (403) and Prometheus' system:monitoring certificate is allowed; with
 *   --kube-authorization=false the apiserver allows everyone, and so do these.
 * --authentication-skip-lookup: the CAs are given, so nothing is read from the
 * extension-apiserver-authentication ConfigMap at start-up, which would fail (and make the
 * component exit) while the apiserver is still starting alongside.
 */
export function delegatedAuthArgs(kubeconfig: string, clientCa: string): string[] {
  return [
    `--authentication-kubeconfig=${kubeconfig}`,
    `--authorization-kubeconfig=${kubeconfig}`,
    `--client-ca-file=${clientCa}`,
    '--authentication-skip-lookup=true',
    '--authorization-always-allow-paths=/healthz,/readyz,/livez',
  ];
}
