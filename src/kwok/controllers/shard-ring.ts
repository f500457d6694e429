/**
 * Which shard owns a node: rendezvous (highest-random-weight) hashing of the node name over the
 * live shard identities. Every shard computes the same owner from the same member set, with no
 * coordination, and a join or leave moves only the nodes that the joining shard wins or that the
 * leaving shard held (about 1/N of them), which keeps lease handovers to the minimum.
 */

/** 32-bit FNV-1a, then murmur3's finaliser so that similar names spread evenly. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class ShardRing {
  /** Sorted, so ties (equal weights) break the same way everywhere. */
  readonly members: readonly string[];

  constructor(members: Iterable<string>) {
    this.members = [...new Set(members)].sort();
  }

  /** The owner of `key`, or undefined when there are no members. */
  ownerOf(key: string): string | undefined {
    let best: string | undefined;
    let bestWeight = -1;
    for (const member of this.members) {
      const weight = hash32(`${member}\u0000${key}`);
      if (weight > bestWeight) {
        best = member;
        bestWeight = weight;
      }
    }
    return best;
  }

  sameMembers(other: ShardRing): boolean {
    return this.members.length === other.members.length && this.members.every((m, i) => m === other.members[i]);
  }
}
