/**
 * The names of the built-in components. Configuration validates `--extra-args`,
 * `componentsPatches` and `--disable` against them, so they live here, below src/components
 * (which re-exports them), rather than in the component builders. In kwokctl's order, which is
 * also the order components start in (and, reversed, stop in) within a link group.
 */
export const COMPONENT_NAMES = ['etcd', 'jaeger', 'kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kwok-controller', 'metrics-server', 'prometheus'] as const;
export type BuiltinComponentName = (typeof COMPONENT_NAMES)[number];
/** A built-in component, or one the user added in KwokctlConfiguration.components. */
export type ComponentName = BuiltinComponentName | (string & {});
