/**
 * How kube-controller-manager and kube-scheduler decide who may read their secure port, as
 * kubeadm configures them. Only /healthz, /readyz and /livez are open (their default, so
 * readiness checks need no credentials); /metrics and everything else need an authenticated,
 * authorized caller. Client certificates are verified against the cluster CA
 * (--client-ca-file), bearer tokens through the apiserver's TokenReview
 * (--authentication-kubeconfig). system:masters is always allowed.
 *
 * With RBAC (the default) every other decision is the apiserver's, through SubjectAccessReview
 * (--authorization-kubeconfig): an anonymous request is refused (403), Prometheus'
 * system:monitoring certificate is allowed. Without RBAC (--no-kube-authorization) the
 * apiserver would answer "allowed" for anyone, anonymous included, so no SubjectAccessReview
 * is made: only system:masters gets in (Prometheus' certificate then carries that group too,
 * which grants it nothing new: without RBAC every certificate of the cluster CA is all-powerful).
 *
 * --authentication-skip-lookup: the CAs are given, so nothing is read from the
 * extension-apiserver-authentication ConfigMap at start-up, which would fail (and make the
 * component exit) while the apiserver is still starting alongside.
 */
export function delegatedAuthArgs(kubeconfig: string, clientCa: string, rbac: boolean): string[] {
  return [
    `--authentication-kubeconfig=${kubeconfig}`,
    ...(rbac ? [`--authorization-kubeconfig=${kubeconfig}`] : []),
    `--client-ca-file=${clientCa}`,
    '--authentication-skip-lookup=true',
    '--authorization-always-allow-paths=/healthz,/readyz,/livez',
  ];
}
