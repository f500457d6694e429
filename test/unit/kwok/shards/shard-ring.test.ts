import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hash32, ShardRing } from '../../../../src/kwok/controllers/shard-ring.js';

const nodes = Array.from({ length: 3000 }, (_, i) => `node-${i}`);

function owners(ring: ShardRing): Map<string, string> {
  return new Map(nodes.map((n) => [n, ring.ownerOf(n)!]));
}

function moved(a: Map<string, string>, b: Map<string, string>): string[] {
  return nodes.filter((n) => a.get(n) !== b.get(n));
}

describe('ShardRing', () => {
  it('gives every node exactly one owner, the same whatever the order of the members', () => {
    const ring = new ShardRing(['c', 'a', 'b']);
    const again = new ShardRing(['b', 'c', 'a', 'a']);
    for (const node of nodes) {
      const owner = ring.ownerOf(node);
      assert.ok(owner && ['a', 'b', 'c'].includes(owner));
      assert.equal(again.ownerOf(node), owner);
    }
    assert.equal(new ShardRing([]).ownerOf('node-1'), undefined);
  });

  it('spreads nodes evenly', () => {
    const counts = new Map<string, number>();
    for (const owner of owners(new ShardRing(['s0', 's1', 's2', 's3'])).values()) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    for (const count of counts.values()) assert.ok(count > 600 && count < 900, `share ${count} of 3000 is far from 750`);
  });

  it('moves only the joining shard’s nodes when a shard joins', () => {
    const before = owners(new ShardRing(['a', 'b', 'c']));
    const after = owners(new ShardRing(['a', 'b', 'c', 'd']));
    const changed = moved(before, after);
    assert.ok(changed.every((n) => after.get(n) === 'd'), 'a node moved between old shards');
    assert.ok(changed.length > 500 && changed.length < 1000, `${changed.length} of 3000 moved; expected about a quarter`);
  });

  it('moves only the leaving shard’s nodes when a shard leaves', () => {
    const before = owners(new ShardRing(['a', 'b', 'c']));
    const after = owners(new ShardRing(['a', 'c']));
    const changed = moved(before, after);
    assert.deepEqual(changed, nodes.filter((n) => before.get(n) === 'b'));
  });

  it('hashes to unsigned 32-bit integers', () => {
    for (const text of ['', 'a', 'node-1', 'ü']) {
      const h = hash32(text);
      assert.ok(Number.isInteger(h) && h >= 0 && h < 2 ** 32);
    }
    assert.notEqual(hash32('node-1'), hash32('node-2'));
  });
});
