// No oclif import here: the fast create (src/cli/create-cluster-fast.ts) uses it without oclif.

/** What `--wait` asks for: absent, every component within 2m; 0, kube-apiserver only. */
export function waitPlan(wait: number | undefined): { waitMs: number; waitFor: 'all' | 'apiserver' } {
  if (wait === undefined) return { waitMs: 0, waitFor: 'all' };
  return wait === 0 ? { waitMs: 0, waitFor: 'apiserver' } : { waitMs: wait, waitFor: 'all' };
}
