/**
 * Callers the controller's own rules do not decide (client-auth.ts), asked of the apiserver as a
 * kubelet in Webhook mode asks it: a bearer token by a TokenReview, a request by a
 * SubjectAccessReview with the kubelet's attributes. This is how service accounts get in: kind's
 * metrics-server scraping the Metric paths (it may get nodes/metrics), a Prometheus whose role
 * lets it read /metrics. Answers are kept for a while, as the kubelet keeps them, so a scrape every
 * few seconds costs the apiserver nothing new.
 */
import type { KubeClient, KubeObject, ResourceRef } from '../../kube/index.js';
import type { ClientIdentity } from './client-auth.js';

const tokenReviews: ResourceRef = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews', kind: 'TokenReview', namespaced: false };
const accessReviews: ResourceRef = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false };

/** What a request asks for, in the terms of an access review. */
export type AccessAttributes =
  | { kind: 'resource'; verb: string; resource: 'nodes'; subresource: string; name: string }
  | { kind: 'path'; verb: string; path: string };

export interface ApiReviewer {
  /** The identity a bearer token stands for, or undefined when the apiserver does not know it. */
  authenticate(token: string): Promise<ClientIdentity | undefined>;
  /** Whether the apiserver's authorizer allows `identity` the request. */
  authorize(identity: ClientIdentity, attributes: AccessAttributes): Promise<boolean>;
}

/** The kubelet's cache lifetimes (its --authentication-token-webhook-cache-ttl and the authorizer's). */
const AUTHENTICATED_TTL_MS = 2 * 60_000;
const AUTHORIZED_TTL_MS = 5 * 60_000;
const UNAUTHORIZED_TTL_MS = 30_000;
const CACHE_LIMIT = 1024;

class TtlCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  constructor(private readonly now: () => number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.until > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, ttlMs: number): void {
    if (this.entries.size >= CACHE_LIMIT) this.entries.clear();
    this.entries.set(key, { value, until: this.now() + ttlMs });
  }
}

export function createApiReviewer(client: KubeClient, now: () => number = Date.now): ApiReviewer {
  const identities = new TtlCache<ClientIdentity | null>(now);
  const decisions = new TtlCache<boolean>(now);
  return {
    async authenticate(token) {
      const known = identities.get(token);
      if (known !== undefined) return known ?? undefined;
      const review = await client.create(tokenReviews, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: {}, spec: { token } } as KubeObject);
      const status = review['status'] as { authenticated?: boolean; user?: { username?: string; groups?: string[] } } | undefined;
      const identity = status?.authenticated && status.user?.username ? { user: status.user.username, groups: status.user.groups ?? [] } : null;
      identities.set(token, identity, AUTHENTICATED_TTL_MS);
      return identity ?? undefined;
    },
    async authorize(identity, attributes) {
      const key = JSON.stringify([identity.user, identity.groups, attributes]);
      const known = decisions.get(key);
      if (known !== undefined) return known;
      const spec = {
        user: identity.user,
        groups: identity.groups,
        ...(attributes.kind === 'resource'
          ? { resourceAttributes: { verb: attributes.verb, resource: attributes.resource, subresource: attributes.subresource, ...(attributes.name ? { name: attributes.name } : {}) } }
          : { nonResourceAttributes: { verb: attributes.verb, path: attributes.path } }),
      };
      const review = await client.create(accessReviews, { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', metadata: {}, spec } as KubeObject);
      const allowed = (review['status'] as { allowed?: boolean } | undefined)?.allowed === true;
      decisions.set(key, allowed, allowed ? AUTHORIZED_TTL_MS : UNAUTHORIZED_TTL_MS);
      return allowed;
    },
  };
}
