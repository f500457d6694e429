/** Output formats of `get clusters`; a module of its own so the fast path can check one without loading the lister. */
export const CLUSTER_LIST_FORMATS = ['name', 'wide', 'json'] as const;
export type ClusterListFormat = (typeof CLUSTER_LIST_FORMATS)[number];
