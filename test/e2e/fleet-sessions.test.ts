// Whole sessions of every handshake-era client (mcpwire's, the official SDK v1, and v2) against a fleet,
// for what crosses instances only over the bus or the session store: cancellation, resource updates to
// subscribers, a stream resumed on another instance, the log level, and the answer to roots/list. Three `mcpwire serve everything --redis` instances behind HAProxy
// (round-robin, no stickiness) on redis-server, all started here. HAProxy names the instance that
// answered each request (X-Fleet-Instance), so each test checks that its requests did cross instances.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { McpClient } from '../../src/client/client.js';
import { HttpClientTransport } from '../../src/transport/http/client-transport.js';
import { type Fleet, startFleet } from '../support/fleet-harness.js';
import { Recorder, when } from '../support/fleet-recorder.js';

const WATCHED = 'test://watched-resource';

/** What a test does with a client, whichever it is. */
interface Driver {
  readonly recorder: Recorder;
  connect(url: string): Promise<void>;
  /** longRunningOperation, for 100 ms a step. */
  callLong(steps: number, signal: AbortSignal, onProgress: (progress: number) => void): Promise<unknown>;
  ping(): Promise<void>;
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  setLevel(level: 'warning'): Promise<void>;
  /** A tool's text content. */
  call(name: string): Promise<string>;
  close(): Promise<void>;
}

/** The roots every client gives, when asked. */
const ROOTS = [{ uri: 'file:///fleet/root', name: 'fleet' }];

interface Heard {
  onLog(text: string, level: string): void;
  onUpdated(uri: string): void;
}

const drivers: Record<string, (heard: Heard) => Driver> = {
  mcpwire: (heard) => {
    const recorder = new Recorder();
    const client = new McpClient({
      name: 'fleet-mcpwire',
      version: '1',
      era: 'handshake',
      onLog: (message) => heard.onLog(String(message.data), message.level),
      onResourceUpdated: (uri) => heard.onUpdated(uri),
      roots: () => ROOTS,
    });
    return {
      recorder,
      connect: async (url) => {
        await client.connect(recorder.watch(new HttpClientTransport(url)));
      },
      callLong: (steps, signal, onProgress) =>
        client.callTool(
          'longRunningOperation',
          { duration: steps / 10, steps },
          { signal, onProgress: (p) => onProgress(p.progress) },
        ),
      ping: async () => {
        await client.ping();
      },
      subscribe: async (uri) => {
        await client.subscribeResource(uri);
      },
      unsubscribe: async (uri) => {
        await client.unsubscribeResource(uri);
      },
      setLevel: async (level) => {
        await client.setLoggingLevel(level);
      },
      call: async (name) => JSON.stringify((await client.callTool(name)).content),
      close: () => client.close(),
    };
  },
  'SDK v1': (heard) => {
    const recorder = new Recorder();
    const client = new ClientV1({ name: 'fleet-sdk-v1', version: '1' }, { capabilities: { roots: {} } });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) =>
      heard.onLog(String(n.params.data), n.params.level),
    );
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: ROOTS }));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => heard.onUpdated(n.params.uri));
    return {
      recorder,
      connect: (url) => client.connect(new TransportV1(new URL(url), { fetch: recorder.fetch })),
      callLong: (steps, signal, onProgress) =>
        client.callTool(
          { name: 'longRunningOperation', arguments: { duration: steps / 10, steps } },
          undefined,
          {
            signal,
            onprogress: (p) => onProgress(p.progress),
            resetTimeoutOnProgress: true,
          },
        ),
      ping: async () => {
        await client.ping();
      },
      subscribe: async (uri) => {
        await client.subscribeResource({ uri });
      },
      unsubscribe: async (uri) => {
        await client.unsubscribeResource({ uri });
      },
      setLevel: async (level) => {
        await client.setLoggingLevel(level);
      },
      call: async (name) => JSON.stringify((await client.callTool({ name, arguments: {} })).content),
      close: () => client.close(),
    };
  },
  'SDK v2': (heard) => {
    const recorder = new Recorder();
    const client = new ClientV2(
      { name: 'fleet-sdk-v2', version: '2' },
      { versionNegotiation: { mode: 'legacy' } as never, capabilities: { roots: {} } },
    );
    client.setNotificationHandler('notifications/message', (n) =>
      heard.onLog(String(n.params.data), n.params.level),
    );
    client.setRequestHandler('roots/list', async () => ({ roots: ROOTS }));
    client.setNotificationHandler('notifications/resources/updated', (n) => heard.onUpdated(n.params.uri));
    return {
      recorder,
      connect: (url) => client.connect(new TransportV2(new URL(url), { fetch: recorder.fetch })),
      callLong: (steps, signal, onProgress) =>
        client.callTool(
          { name: 'longRunningOperation', arguments: { duration: steps / 10, steps } },
          { signal, onprogress: (p) => onProgress(p.progress), resetTimeoutOnProgress: true },
        ),
      ping: async () => {
        await client.ping();
      },
      subscribe: async (uri) => {
        await client.subscribeResource({ uri });
      },
      unsubscribe: async (uri) => {
        await client.unsubscribeResource({ uri });
      },
      setLevel: async (level) => {
        await client.setLoggingLevel(level);
      },
      call: async (name) => JSON.stringify((await client.callTool({ name, arguments: {} })).content),
      close: () => client.close(),
    };
  },
};

const isCall = (m: Record<string, unknown>) => m.method === 'tools/call';
const isCancel = (m: Record<string, unknown>) => m.method === 'notifications/cancelled';
const isSubscribe = (m: Record<string, unknown>) => m.method === 'resources/subscribe';
const indexOf = (instance: string) => Number(instance.slice(1)) - 1;

describe('cancellation, subscriptions and resumption across a fleet, with every client', {
  timeout: 180_000,
}, () => {
  let fleet: Fleet;

  before(async () => {
    fleet = await startFleet(3);
  });

  after(async () => {
    await fleet?.stop();
  });

  for (const [name, make] of Object.entries(drivers)) {
    it(`${name}: a call resumed on another instance loses no progress, and its cancellation reaches the instance running it`, {
      timeout: 60_000,
    }, async () => {
      const logs: string[] = [];
      const progress: number[] = [];
      const changed = when();
      const client = make({
        onLog: (text) => {
          logs.push(text);
          changed.poke();
        },
        onUpdated: () => {},
      });
      await client.connect(fleet.url);
      const abort = new AbortController();
      let cut: number | undefined;
      try {
        const call = client.callLong(6000, abort.signal, (p) => {
          progress.push(p);
          changed.poke();
        });
        call.catch(() => undefined);
        await changed.until(() => progress.length >= 2);
        // The instance running the call keeps running it, but its client's connection is gone and the
        // balancer sends it nothing new: the client resumes the stream on another instance.
        const runner = client.recorder.instanceOf(isCall);
        assert.ok(runner, 'HAProxy named no instance');
        cut = indexOf(runner);
        const before = progress.length;
        await fleet.cut(cut);
        await changed.until(() => progress.length >= before + 3);
        const resumed = client.recorder.served.find((s) =>
          s.lastEventId?.startsWith(fleet.instances[cut!]!.id),
        );
        assert.ok(resumed, 'the client did not resume the stream');
        assert.notEqual(resumed.instance, runner, 'the stream was resumed on the instance running the call');
        // Every step once, in order: nothing lost while the client was away, nothing said twice.
        assert.deepEqual(
          progress,
          progress.map((_, i) => i + 1),
        );

        abort.abort();
        await assert.rejects(call);
        await changed.until(() => logs.some((l) => /cancelled after step/.test(l)));
        const told = client.recorder.instanceOf(isCancel);
        assert.ok(told);
        assert.notEqual(told, runner, 'the cancellation landed on the instance running the call');
        assert.match(
          logs.find((l) => /cancelled/.test(l))!,
          /longRunningOperation cancelled after step \d+ of 6000/,
        );
      } finally {
        abort.abort();
        if (cut !== undefined) await fleet.restore(cut);
        await client.close();
      }
    });

    it(`${name}: a subscription made on one instance hears the updates on the GET stream another holds`, {
      timeout: 60_000,
    }, async () => {
      const updates: string[] = [];
      const changed = when();
      const client = make({
        onLog: () => {},
        onUpdated: (uri) => {
          updates.push(uri);
          changed.poke();
        },
      });
      await client.connect(fleet.url);
      try {
        // Every client opens its GET stream once the session is initialized.
        await client.recorder.answered((s) => s.method === 'GET' && s.lastEventId === undefined);
        const holder = client.recorder.streamHolder;
        assert.ok(holder);
        // Round-robin: at most three tries land the subscription on an instance other than the holder.
        for (let i = 0; i < 3; i++) {
          await client.subscribe(WATCHED);
          if (client.recorder.instanceOf(isSubscribe) !== holder) break;
          await client.unsubscribe(WATCHED);
        }
        assert.notEqual(client.recorder.instanceOf(isSubscribe), holder);
        await changed.until(() => updates.length >= 1);
        assert.equal(updates[0], WATCHED);
        await client.unsubscribe(WATCHED);
      } finally {
        await client.close();
      }
    });

    it(`${name}: the log level set on one instance filters logs on another, and roots are answered across instances`, {
      timeout: 60_000,
    }, async () => {
      const levels: string[] = [];
      const client = make({ onLog: (_text, level) => levels.push(level), onUpdated: () => {} });
      await client.connect(fleet.url);
      try {
        // Nothing else in between: the balancer sends each next request to the next instance.
        await client.recorder.answered((s) => s.method === 'GET' && s.lastEventId === undefined);
        await client.setLevel('warning');
        await client.call('logMessages');
        const setLevel = client.recorder.instanceOf((m) => m.method === 'logging/setLevel');
        const logged = client.recorder.instanceOf((m) => m.method === 'tools/call');
        assert.ok(setLevel && logged);
        assert.notEqual(logged, setLevel, 'the log level and the call landed on the same instance');
        assert.deepEqual(levels, ['warning', 'error', 'critical', 'alert', 'emergency']);

        // roots/list goes out on the instance running the call; the answer is POSTed to the next one.
        const roots = await client.call('test_input_required_result_list_roots');
        assert.match(roots, /file:\/\/\/fleet\/root/);
        const asked = client.recorder.instanceOf(
          (m) => m.method === 'tools/call' && (m.params as { name?: string }).name !== 'logMessages',
        );
        const answered = client.recorder.instanceOf(
          (m) => m.method === undefined && JSON.stringify(m.result ?? '').includes('file:///fleet/root'),
        );
        assert.ok(asked && answered);
        assert.notEqual(answered, asked, 'the roots answer landed on the instance that asked');
      } finally {
        await client.close();
      }
    });
  }
});
