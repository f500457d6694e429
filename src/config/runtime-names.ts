/**
 * The runtimes kwokts has, by the names `--runtime` takes. runtimes/registry.ts is what makes them
 * (a unit test keeps the two equal); this list is for what must not load every runtime to name
 * them, shell completion first.
 */
export const RUNTIME_NAMES = ['binary', 'docker', 'podman', 'nerdctl', 'kind'] as const;
