// The token stores keep a record per issuer and resource (issue #17: "keyed by issuer and resource"):
// two authorization servers' credentials for one server never overwrite each other, a load without an
// issuer gives the resource's latest, a delete without one forgets every issuer's. The file store does
// the same in a 0600 file, and reads a file of an earlier mcpwire, keyed by the resource alone.

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { FileTokenStore } from '../../src/transport/http/auth/file-token-store.js';
import {
  type AuthRecord,
  InMemoryTokenStore,
  type TokenStore,
} from '../../src/transport/http/auth/token-store.js';

const SERVER = 'https://mcp.example.com/mcp';
const OTHER = 'https://other.example.com/mcp';
const A = 'https://auth-a.example.com';
const B = 'https://auth-b.example.com';
const record = (issuer: string, resource: string, clientId: string): AuthRecord => ({
  resource,
  issuer,
  client: { client_id: clientId },
  tokens: { access_token: `at-${clientId}` },
});

const folder = mkdtempSync(path.join(tmpdir(), 'mcpwire-token-store-'));
after(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

const stores: Array<[string, () => TokenStore]> = [
  ['InMemoryTokenStore', () => new InMemoryTokenStore()],
  ['FileTokenStore', () => new FileTokenStore(path.join(folder, `auth-${files++}.json`))],
];

for (const [name, make] of stores) {
  describe(`${name}: records keyed by issuer and resource`, () => {
    it('keeps one record per authorization server for the same resource, the latest first without an issuer', async () => {
      const store = make();
      await store.save(record(A, SERVER, 'client-at-a'));
      await store.save(record(B, SERVER, 'client-at-b'));
      await store.save(record(A, OTHER, 'other-at-a'));
      assert.equal((await store.load(SERVER, A))?.client?.client_id, 'client-at-a');
      assert.equal((await store.load(SERVER, B))?.client?.client_id, 'client-at-b');
      assert.equal((await store.load(SERVER))?.issuer, B, 'saved last');
      // Saving A's record again makes it the latest.
      await store.save({ ...record(A, SERVER, 'client-at-a'), tokens: { access_token: 'new' } });
      assert.equal((await store.load(SERVER))?.tokens?.access_token, 'new');
      assert.equal((await store.load(SERVER, B))?.tokens?.access_token, 'at-client-at-b', 'B untouched');
      assert.equal(await store.load(SERVER, 'https://auth-c.example.com'), undefined);
    });

    it("forgets one issuer's record, or every issuer's, and no other resource's", async () => {
      const store = make();
      await store.save(record(A, SERVER, 'a'));
      await store.save(record(B, SERVER, 'b'));
      await store.save(record(A, OTHER, 'o'));
      await store.delete(SERVER, B);
      assert.equal((await store.load(SERVER))?.issuer, A);
      await store.save(record(B, SERVER, 'b'));
      await store.delete(SERVER);
      assert.equal(await store.load(SERVER), undefined);
      assert.equal(await store.load(SERVER, A), undefined);
      assert.equal((await store.load(OTHER))?.client?.client_id, 'o');
    });
  });
}

describe('FileTokenStore: the file', () => {
  it('is created 0600, keyed "ISSUER RESOURCE", and lists each resource once', async () => {
    const file = path.join(folder, 'keyed.json');
    const store = new FileTokenStore(file);
    await store.save(record(A, SERVER, 'a'));
    await store.save(record(B, SERVER, 'b'));
    if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
    const content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, AuthRecord>;
    assert.deepEqual(Object.keys(content), [`${A} ${SERVER}`, `${B} ${SERVER}`]);
    assert.deepEqual(await store.resources(), [SERVER]);
  });

  it('reads a file of an earlier mcpwire (keyed by the resource alone) and rewrites it keyed by both', async () => {
    const file = path.join(folder, 'legacy.json');
    writeFileSync(file, JSON.stringify({ [SERVER]: record(A, SERVER, 'old') }), { mode: 0o600 });
    const store = new FileTokenStore(file);
    assert.equal((await store.load(SERVER))?.client?.client_id, 'old');
    assert.equal((await store.load(SERVER, A))?.client?.client_id, 'old');
    await store.save(record(B, SERVER, 'new'));
    const content = JSON.parse(readFileSync(file, 'utf8')) as Record<string, AuthRecord>;
    assert.deepEqual(Object.keys(content), [`${A} ${SERVER}`, `${B} ${SERVER}`]);
  });
});
