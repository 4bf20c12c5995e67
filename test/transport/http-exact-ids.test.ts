// Integer ids beyond 2^53 over Streamable HTTP: a session's answer (an SSE event) and a stateless JSON
// answer name the id digit for digit, as stdio does (test/transport/exact-ids.test.ts).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { listen, openSession, post, type Session } from '../support/http-helpers.js';

type Listening = Awaited<ReturnType<typeof listen>>;

describe('integer ids beyond 2^53 over HTTP', { timeout: 10_000 }, () => {
  let t: Listening;
  let session: Session;

  before(async () => {
    t = await listen();
    session = await openSession(t.listener.url);
  });

  after(async () => {
    await t?.listener.close();
  });

  it('bug: an id above 2^53 came back rounded; a session answers it exactly', async () => {
    const response = await post(
      t.listener.url,
      '{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}',
      session.headers,
    );
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /data: \{"jsonrpc":"2\.0","id":9007199254740993,"result":\{/);
  });

  it('a stateless request (2026-07-28) is answered with its exact id too', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
      'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
    };
    const body = `{"jsonrpc":"2.0","id":-9007199254740995,"method":"tools/list","params":{"_meta":${JSON.stringify(meta)}}}`;
    const response = await post(t.listener.url, body, {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/list',
    });
    const text = await response.text();
    assert.match(text, /"id":-9007199254740995,"result":/);
  });
});
