/**
 * The names of the built-in components. Configuration validates `--extra-args`,
 * `componentsPatches` and `--disable` against them, so they live here, below src/components
 * (which re-exports them), rather than in the component builders.
 */
export const COMPONENT_NAMES = ['etcd', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'prometheus', 'metrics-server', 'jaeger'] as const;
export type BuiltinComponentName = (typeof COMPONENT_NAMES)[number];
/** A built-in component, or one the user added in KwokctlConfiguration.components. */
export type ComponentName = BuiltinComponentName | (string & {});
