// SlottedSet: a set of objects that know their place in it, used where a Set would give every object made
// for one request an identity hash (the server's sessions, the HTTP endpoint's body deadlines).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlottedSet } from '../../src/jsonrpc/slotted-set.js';

interface Item {
  name: string;
  slot?: number;
}

const items = (...names: string[]): Item[] => names.map((name) => ({ name }));
const names = (set: SlottedSet<Item>) => [...set].map((i) => i.name).sort();

describe('SlottedSet', () => {
  it('adds once, deletes from any place, and keeps the others findable', () => {
    const set = new SlottedSet<Item>();
    const [a, b, c, d] = items('a', 'b', 'c', 'd');
    for (const item of [a!, b!, c!, d!]) set.add(item);
    set.add(b!);
    assert.equal(set.size, 4);
    // The first goes: the last takes its place, and must still be found (and deleted) there.
    assert.equal(set.delete(a!), true);
    assert.equal(set.has(d!), true);
    assert.equal(set.delete(d!), true);
    assert.equal(set.delete(a!), false, 'a second delete finds nothing');
    assert.deepEqual(names(set), ['b', 'c']);
    assert.equal(set.has(a!), false);
    set.add(a!);
    assert.deepEqual(names(set), ['a', 'b', 'c']);
  });

  it('iterates over what it held when the iteration began', () => {
    const set = new SlottedSet<Item>();
    const [a, b, c] = items('a', 'b', 'c');
    for (const item of [a!, b!, c!]) set.add(item);
    const seen: string[] = [];
    for (const item of set) {
      seen.push(item.name);
      // Deleting the one visited and adding another, as a broadcast whose send closes a session might.
      set.delete(item);
      set.add({ name: `${item.name}2` });
    }
    assert.deepEqual(seen, ['a', 'b', 'c']);
    assert.deepEqual(names(set), ['a2', 'b2', 'c2']);
  });

  it('does not take an object that another set told its place for one of its own', () => {
    const first = new SlottedSet<Item>();
    const second = new SlottedSet<Item>();
    const [a, b] = items('a', 'b');
    first.add(a!);
    second.add(b!);
    // b's slot (0) names a's place in `first`: `first` must not believe it holds b.
    assert.equal(first.has(b!), false);
    assert.equal(first.delete(b!), false);
    assert.deepEqual(names(first), ['a']);
  });
});
