/**
 * The names of the built-in components. Configuration validates `--extra-args`,
 * `componentsPatches` and `--disable` against them, so they live here, below src/components
 * (which re-exports them), rather than in the component builders. In kwokctl's order: the order
 * of a cluster's component list (export logs, get components), and within each link group the
 * order components start in (and, reversed, stop in).
 */
export const COMPONENT_NAMES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus', 'jaeger', 'scheduler-plugins'] as const;
export type BuiltinComponentName = (typeof COMPONENT_NAMES)[number];

/**
 * kwokctl v0.8.0's other components (its optional extras, container runtimes only): names kwokts
 * knows but does not run, so that `--enable kueue` says that rather than "unknown".
 */
export const KWOKCTL_COMPONENTS_NOT_RUN = ['descheduler', 'kueue', 'kueueviz', 'jobset', 'lws', 'dashboard', 'dashboard-metrics-scraper', 'kube-apiserver-insecure-proxy'] as const;
/** A built-in component, or one the user added in KwokctlConfiguration.components. */
export type ComponentName = BuiltinComponentName | (string & {});
