// Resource updates and list changes announced on one instance of a fleet reach the subscribers every
// other instance serves: handshake-era resources/subscribe (the instance holding the session's GET stream
// delivers) and 2026-07-28 subscriptions/listen streams (the instance holding the stream delivers), with
// every client. The fleet is three `mcpwire serve sqlite DB --write --redis URL` instances on one
// database, behind HAProxy (round-robin, no stickiness), on redis-server, all started here. The change is
// made by a table created on an instance chosen to be another than the one delivering: the create_table
// call goes to that instance directly, not through the balancer.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';
import { Recorder, type Served, when } from '../support/fleet-recorder.js';

const SCHEMA = 'sqlite://schema';

interface Heard {
  updated(uri: string): void;
  listChanged(): void;
}

interface Subscriber {
  readonly recorder: Recorder;
  /** Whether it listens in the 2026-07-28 way (a subscriptions/listen stream) or with resources/subscribe. */
  readonly stateless: boolean;
  connect(url: string): Promise<void>;
  subscribe(): Promise<void>;
  close(): Promise<void>;
}

const subscribers: Record<string, (heard: Heard) => Subscriber> = {
  'mcpwire (handshake)': (heard) => {
    const recorder = new Recorder();
    const client = new McpClient({
      name: 'events-mcpwire',
      version: '1',
      era: 'handshake',
      onResourceUpdated: (uri) => heard.updated(uri),
    });
    return {
      recorder,
      stateless: false,
      connect: async (url) => {
        await client.connect(recorder.watch(new HttpClientTransport(url)));
      },
      subscribe: async () => {
        await client.subscribeResource(SCHEMA);
      },
      close: () => client.close(),
    };
  },
  'SDK v1': (heard) => {
    const recorder = new Recorder();
    const client = new ClientV1({ name: 'events-sdk-v1', version: '1' }, { capabilities: {} });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard.updated(n.params.uri));
    return {
      recorder,
      stateless: false,
      connect: (url) => client.connect(new TransportV1(new URL(url), { fetch: recorder.fetch })),
      subscribe: async () => {
        await client.subscribeResource({ uri: SCHEMA });
      },
      close: () => client.close(),
    };
  },
  'SDK v2 (handshake)': (heard) => {
    const recorder = new Recorder();
    const client = new ClientV2(
      { name: 'events-sdk-v2', version: '2' },
      { versionNegotiation: { mode: 'legacy' } as never, capabilities: {} },
    );
    client.setNotificationHandler('notifications/resources/updated', (n) => heard.updated(n.params.uri));
    return {
      recorder,
      stateless: false,
      connect: (url) => client.connect(new TransportV2(new URL(url), { fetch: recorder.fetch })),
      subscribe: async () => {
        await client.subscribeResource({ uri: SCHEMA });
      },
      close: () => client.close(),
    };
  },
  'SDK v2 (2026-07-28)': (heard) => {
    const recorder = new Recorder();
    const client = new ClientV2(
      { name: 'events-sdk-v2-modern', version: '2' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } as never, capabilities: {} },
    );
    client.setNotificationHandler('notifications/resources/updated', (n) => heard.updated(n.params.uri));
    client.setNotificationHandler('notifications/resources/list_changed', () => heard.listChanged());
    return {
      recorder,
      stateless: true,
      connect: (url) => client.connect(new TransportV2(new URL(url), { fetch: recorder.fetch })),
      subscribe: async () => {
        await client.listen({ resourcesListChanged: true, resourceSubscriptions: [SCHEMA] });
      },
      close: () => client.close(),
    };
  },
  'mcpwire (2026-07-28)': (heard) => {
    const recorder = new Recorder();
    const client = new McpClient({
      name: 'events-mcpwire-modern',
      version: '1',
      era: 'stateless',
      onResourceUpdated: (uri) => heard.updated(uri),
      onListChanged: (list) => {
        if (list === 'resources') heard.listChanged();
      },
    });
    return {
      recorder,
      stateless: true,
      connect: async (url) => {
        await client.connect(recorder.watch(new HttpClientTransport(url)));
      },
      subscribe: async () => {
        await client.subscribeResource(SCHEMA);
      },
      close: () => client.close(),
    };
  },
};

const isListen = (s: Served) => s.body?.method === 'subscriptions/listen';
const isStream = (s: Served) => s.method === 'GET' && s.lastEventId === undefined;

describe('resource updates and list changes cross a fleet to every subscriber', { timeout: 180_000 }, () => {
  let fleet: Fleet;
  let tables = 0;

  before(async () => {
    fleet = await startFleet(3, [], {
      server: (dir) => ['sqlite', join(dir, 'fleet.db'), '--write', '--create'],
    });
  });

  after(async () => {
    await fleet?.stop();
  });

  /** Creates a table on the instance `index`, directly (not through the balancer). */
  const createTableOn = async (index: number) => {
    const writer = new McpClient({ name: 'writer', version: '1', era: 'stateless' });
    await writer.connect(new HttpClientTransport(`http://127.0.0.1:${fleet.instances[index]!.port}/mcp`));
    try {
      const created = await writer.callTool('create_table', {
        sql: `CREATE TABLE t${++tables} (id INTEGER PRIMARY KEY)`,
      });
      assert.equal(created.isError, undefined, JSON.stringify(created.content));
    } finally {
      await writer.close();
    }
  };

  for (const [name, make] of Object.entries(subscribers)) {
    it(`${name}: a table created on another instance than the one delivering is heard`, {
      timeout: 60_000,
    }, async () => {
      const updates: string[] = [];
      let listChanges = 0;
      const changed = when();
      const client = make({
        updated: (uri) => {
          updates.push(uri);
          changed.poke();
        },
        listChanged: () => {
          listChanges++;
          changed.poke();
        },
      });
      await client.connect(fleet.url);
      try {
        await client.subscribe();
        // The instance that delivers: the one holding the listen stream, or the session's GET stream.
        await client.recorder.answered(client.stateless ? isListen : isStream);
        const deliverer = client.recorder.served.find(client.stateless ? isListen : isStream)!.instance;
        const index = Number(deliverer.slice(1)) - 1;
        if (!client.stateless) {
          // The subscription was stored before it was answered; a request on the delivering instance
          // itself makes sure that copy has read it, whatever the order the bus brought it in.
          const session = client.recorder.sessionId;
          assert.ok(session);
          const ping = await fetch(`http://127.0.0.1:${fleet.instances[index]!.port}/mcp`, {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Accept: 'application/json, text/event-stream',
              'Mcp-Session-Id': session,
              'MCP-Protocol-Version': '2025-11-25',
            },
            body: JSON.stringify({ jsonrpc: '2.0', id: 'sync', method: 'ping' }),
          });
          assert.equal(ping.status, 200);
          await ping.text();
        }
        await createTableOn((index + 1) % fleet.instances.length);
        await changed.until(() => updates.length >= 1 && (!client.stateless || listChanges >= 1));
        assert.equal(updates[0], SCHEMA);
      } finally {
        await client.close();
      }
    });
  }
});
