// WireMonitor fed bytes directly, with a fake clock: every problem kind, latency matching by id, batches,
// and the same events whatever the chunk boundaries.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  type Direction,
  type ProblemKind,
  type WireMessage,
  WireMonitor,
  type WireProblem,
} from '../../src/inspect/wire-monitor.js';

type Event = { type: 'message'; message: WireMessage } | { type: 'problem'; problem: WireProblem };

function harness() {
  let now = 1000;
  const events: Event[] = [];
  const monitor = new WireMonitor(
    {
      message: (message) => events.push({ type: 'message', message }),
      problem: (problem) => events.push({ type: 'problem', problem }),
    },
    { clock: () => now },
  );
  return {
    monitor,
    events,
    /** Moves the clock on. */
    at(ms: number) {
      now = 1000 + ms;
    },
    client(text: string) {
      monitor.clientBytes(Buffer.from(text));
    },
    server(text: string) {
      monitor.serverBytes(Buffer.from(text));
    },
    problems(): WireProblem[] {
      return events.flatMap((e) => (e.type === 'problem' ? [e.problem] : []));
    },
    kinds(): Array<[ProblemKind, Direction]> {
      return events.flatMap((e) => (e.type === 'problem' ? [[e.problem.kind, e.problem.from]] : []));
    },
    messages(): WireMessage[] {
      return events.flatMap((e) => (e.type === 'message' ? [e.message] : []));
    },
  };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;
const request = (id: string | number, method = 'ping', params?: unknown) =>
  line(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
const result = (id: string | number, value: unknown = {}) => line({ jsonrpc: '2.0', id, result: value });
const progress = (progressToken: unknown, n = 1) =>
  line({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: n } });

describe('WireMonitor: messages and latency', () => {
  it('reports each message with its direction, and a response with its latency and method', () => {
    const h = harness();
    h.at(0);
    h.client(request(1, 'tools/list'));
    h.at(42);
    h.server(result(1, { tools: [] }));
    assert.deepEqual(h.messages(), [
      { from: 'client', payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      {
        from: 'server',
        payload: { jsonrpc: '2.0', id: 1, result: { tools: [] } },
        latencyMs: 42,
        answers: 'tools/list',
      },
    ]);
    assert.deepEqual(h.problems(), []);
    assert.equal(h.monitor.pendingRequests, 0);
  });

  it('matches responses by id, not by order, and keeps 1 and "1" apart', () => {
    const h = harness();
    h.at(0);
    h.client(request(1, 'a'));
    h.at(5);
    h.client(request('1', 'b'));
    h.at(10);
    h.client(request(2, 'c'));
    assert.equal(h.monitor.pendingRequests, 3);
    h.at(12);
    h.server(result('1'));
    h.at(20);
    h.server(result(2));
    h.at(31);
    h.server(result(1));
    const answers = h.messages().filter((m) => m.from === 'server');
    assert.deepEqual(
      answers.map((m) => [(m.payload as { id: unknown }).id, m.answers, m.latencyMs]),
      [
        ['1', 'b', 7],
        [2, 'c', 10],
        [1, 'a', 31],
      ],
    );
    assert.deepEqual(h.problems(), []);
    assert.equal(h.monitor.pendingRequests, 0);
  });

  it('measures requests the server sends to the client too', () => {
    const h = harness();
    h.at(100);
    h.server(request('s1', 'roots/list'));
    h.at(103);
    h.client(result('s1', { roots: [] }));
    const response = h.messages().find((m) => m.from === 'client');
    assert.equal(response?.latencyMs, 3);
    assert.equal(response?.answers, 'roots/list');
    assert.deepEqual(h.problems(), []);
  });

  it('gives notifications and unmatched messages no latency', () => {
    const h = harness();
    h.client(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    h.server(line({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }));
    for (const message of h.messages()) {
      assert.equal(message.latencyMs, undefined);
      assert.equal(message.answers, undefined);
    }
    assert.equal(h.messages().length, 2);
  });
});

describe('WireMonitor: problems', () => {
  it('not-json: a print between responses, with its bytes; the messages around it still count', () => {
    const h = harness();
    h.client(request(1));
    h.client(request(2));
    h.server(`${result(1).trimEnd()}\ndebug: handled ping\n${result(2)}`);
    assert.deepEqual(h.kinds(), [['not-json', 'server']]);
    const [problem] = h.problems();
    assert.equal(problem?.bytes, 'debug: handled ping');
    assert.match(problem!.message, /stderr/);
    assert.equal(h.messages().filter((m) => m.latencyMs !== undefined).length, 2);
  });

  it('not-json from the client is the client’s', () => {
    const h = harness();
    h.client('{"jsonrpc": "2.0", "id": 1, "method": "ping", oops}\n');
    assert.deepEqual(h.kinds(), [['not-json', 'client']]);
    assert.equal(h.problems()[0]?.bytes, '{"jsonrpc": "2.0", "id": 1, "method": "ping", oops}');
    assert.deepEqual(h.messages(), []);
  });

  it('not-json: long offending bytes are cut to an excerpt', () => {
    const h = harness();
    h.server(`${'x'.repeat(1000)}\n`);
    const bytes = h.problems()[0]?.bytes ?? '';
    assert.equal(bytes, `${'x'.repeat(240)}…`);
  });

  it('not-json: the start of a message that never ends is reported when the next message comes', () => {
    const h = harness();
    h.client(request(1));
    h.server('{"jsonrpc":"2.0","id":1,"res\n');
    assert.deepEqual(h.kinds(), [], 'it may still be completed by the next line');
    h.server(result(1));
    assert.deepEqual(h.kinds(), [['not-json', 'server']]);
    assert.equal(h.problems()[0]?.bytes, '{"jsonrpc":"2.0","id":1,"res');
    assert.equal(h.messages().at(-1)?.answers, 'ping');
  });

  it('not-json: or when the server exits', () => {
    const h = harness();
    h.server('{"jsonrpc":"2.0","id":1,"res');
    h.monitor.serverExited('exited with code 0');
    assert.deepEqual(h.kinds(), [['not-json', 'server']]);
  });

  it('raw-newline: a newline inside a string splits a message in two', () => {
    const h = harness();
    h.client(request(3, 'tools/call'));
    h.server('{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"one\ntwo"}]}}\n');
    assert.deepEqual(h.kinds(), [['raw-newline', 'server']]);
    assert.equal(
      h.problems()[0]?.bytes,
      '{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"one\ntwo"}]}}',
    );
    const response = h.messages().at(-1)!;
    assert.deepEqual(response.payload, {
      jsonrpc: '2.0',
      id: 3,
      result: { content: [{ type: 'text', text: 'one\ntwo' }] },
    });
    assert.equal(response.answers, 'tools/call');
  });

  it('raw-newline: a pretty-printed message is one problem and still one message', () => {
    const h = harness();
    const response = { jsonrpc: '2.0', id: 'p', result: { list: [1, { a: [] }, 'x'], empty: {} } };
    h.at(0);
    h.client(request('p'));
    h.at(9);
    h.server(`${JSON.stringify(response, null, 2)}\n`);
    assert.deepEqual(h.kinds(), [['raw-newline', 'server']]);
    assert.equal(h.problems()[0]?.bytes, JSON.stringify(response, null, 2));
    assert.match(
      h.problems()[0]!.message,
      new RegExp(`split across ${JSON.stringify(response, null, 2).split('\n').length} lines`),
    );
    assert.deepEqual(h.messages().at(-1), {
      from: 'server',
      payload: response,
      latencyMs: 9,
      answers: 'ping',
    });
  });

  it('raw-newline: a message on its own line after a broken start is not swallowed', () => {
    const h = harness();
    h.client(request(1));
    h.server(`{\n  "jsonrpc": "2.0",\n${result(1)}`);
    assert.deepEqual(h.kinds(), [['not-json', 'server']]);
    assert.equal(h.problems()[0]?.bytes, '{\n  "jsonrpc": "2.0",');
    assert.equal(h.messages().at(-1)?.answers, 'ping');
  });

  it('invalid-jsonrpc: valid JSON that is no JSON-RPC message, which is still reported as a message', () => {
    const h = harness();
    h.server(line({ jsonrpc: '1.0', id: 1, method: 'ping' }));
    h.server('42\n');
    h.client(line({ jsonrpc: '2.0', id: 1, method: 7 }));
    assert.deepEqual(h.kinds(), [
      ['invalid-jsonrpc', 'server'],
      ['invalid-jsonrpc', 'server'],
      ['invalid-jsonrpc', 'client'],
    ]);
    assert.match(h.problems()[0]!.message, /"jsonrpc" must be exactly "2.0"/);
    assert.equal(h.problems()[1]?.bytes, '42');
    assert.equal(h.messages().length, 3);
  });

  it('duplicate-id: an id reused while its request is in flight, but not after it was answered', () => {
    const h = harness();
    h.client(request(7, 'tools/list'));
    h.client(request(7, 'prompts/list'));
    assert.deepEqual(h.kinds(), [['duplicate-id', 'client']]);
    assert.match(h.problems()[0]!.message, /"tools\/list"/);
    h.server(result(7));
    h.client(request(7, 'ping'));
    assert.equal(h.problems().length, 1);
  });

  it('unknown-response: a response to an id never sent, or answered twice', () => {
    const h = harness();
    h.server(result(99));
    h.client(request(1));
    h.server(result(1));
    h.server(result(1));
    assert.deepEqual(h.kinds(), [
      ['unknown-response', 'server'],
      ['unknown-response', 'server'],
    ]);
    assert.match(h.problems()[0]!.message, /id 99/);
  });

  it('response-to-notification: a response without an id', () => {
    const h = harness();
    h.client(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    h.server(line({ jsonrpc: '2.0', result: {} }));
    h.server(line({ jsonrpc: '2.0', id: null, result: {} }));
    assert.deepEqual(h.kinds(), [
      ['response-to-notification', 'server'],
      ['response-to-notification', 'server'],
    ]);
    assert.equal(h.problems()[0]?.bytes, '{"jsonrpc":"2.0","result":{}}');
  });

  it('an error with id null (the answer to a parse error) is not a problem', () => {
    const h = harness();
    h.client('not json\n');
    h.server(line({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
    h.monitor.serverExited('exited with code 0');
    assert.deepEqual(h.kinds(), [['not-json', 'client']]);
  });

  it('progress-after-response: progress for a token whose request was answered', () => {
    const h = harness();
    h.client(request(5, 'tools/call', { name: 'slow', _meta: { progressToken: 'tok' } }));
    h.server(progress('tok', 1));
    assert.deepEqual(h.kinds(), []);
    h.server(result(5));
    h.server(progress('tok', 2));
    assert.deepEqual(h.kinds(), [['progress-after-response', 'server']]);
    assert.match(h.problems()[0]!.message, /"tok"/);
  });

  it('regression: finishedTokens is bounded in a long-lived trace, and late progress is still flagged', () => {
    const h = harness();
    const requests = 20_000;
    for (let i = 0; i < requests; i++) {
      h.client(request(i, 'tools/call', { name: 'slow', _meta: { progressToken: `tok-${i}` } }));
      h.server(result(i));
    }
    // Before the fix every answered request's token was kept for the life of the trace.
    assert.ok(
      h.monitor.finishedProgressTokens <= 1024,
      `${h.monitor.finishedProgressTokens} finished tokens remembered after ${requests} requests`,
    );
    // Progress that comes late for a recently answered request is still a problem, as before.
    h.server(progress(`tok-${requests - 1}`));
    h.server(progress(`tok-${requests - 500}`));
    assert.deepEqual(h.kinds(), [
      ['progress-after-response', 'server'],
      ['progress-after-response', 'server'],
    ]);
  });

  it('progress-after-response: a token reused by a new request in flight is that request’s again', () => {
    const h = harness();
    h.client(request(1, 'tools/call', { name: 'slow', _meta: { progressToken: 'tok' } }));
    h.server(result(1));
    h.client(request(2, 'tools/call', { name: 'slow', _meta: { progressToken: 'tok' } }));
    h.server(progress('tok'));
    assert.deepEqual(h.kinds(), []);
    h.server(result(2));
    h.server(progress('tok'));
    assert.deepEqual(h.kinds(), [['progress-after-response', 'server']]);
  });

  it('unanswered: requests in flight when the server exits, not notifications, not answered ones', () => {
    const h = harness();
    h.client(request(1, 'initialize', {}));
    h.client(request(2, 'tools/call', { name: 'x' }));
    h.client(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    h.server(result(1));
    h.monitor.serverExited('exited with code 1');
    assert.deepEqual(h.kinds(), [['unanswered', 'server']]);
    assert.equal(
      h.problems()[0]?.message,
      '"tools/call" (id 2) was never answered; the server exited with code 1',
    );
    assert.equal(h.monitor.pendingRequests, 0);
  });

  it('unanswered: a line that is not JSON and never got a parse error', () => {
    const h = harness();
    h.client('this is not json\n');
    h.client(request(1));
    h.server(result(1));
    h.client('{"half": \n');
    h.monitor.serverExited('exited with code 0');
    assert.deepEqual(h.kinds(), [
      ['not-json', 'client'],
      ['unanswered', 'server'],
    ]);
    assert.match(h.problems()[1]!.message, /^2 lines of the client that were not JSON never got a -32700/);
  });

  it('no-exit: the server still running after the client closed its stdin', () => {
    const h = harness();
    h.at(100);
    h.monitor.clientEnded();
    h.at(1100);
    h.monitor.serverStillRunning();
    assert.deepEqual(h.kinds(), [['no-exit', 'server']]);
    assert.match(h.problems()[0]!.message, /still running 1000 ms after its stdin closed/);
  });

  it('framing: a Content-Length header without a valid length', () => {
    const h = harness();
    h.server('Content-Length: lots\r\n\r\n{}');
    assert.deepEqual(h.kinds(), [['framing', 'server']]);
  });
});

describe('WireMonitor: batches', () => {
  it('reports each message of a batch, and matches each response of a batch by id', () => {
    const h = harness();
    h.at(0);
    h.client(
      line([
        { jsonrpc: '2.0', id: 'a', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'zz' } },
        { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
      ]),
    );
    assert.equal(h.messages().length, 3);
    assert.equal(h.monitor.pendingRequests, 2);
    h.at(4);
    h.server(
      line([
        { jsonrpc: '2.0', id: 'b', result: { tools: [] } },
        { jsonrpc: '2.0', id: 'a', result: {} },
      ]),
    );
    assert.deepEqual(
      h
        .messages()
        .slice(3)
        .map((m) => [m.answers, m.latencyMs]),
      [
        ['tools/list', 4],
        ['ping', 4],
      ],
    );
    assert.deepEqual(h.problems(), []);
  });

  it('flags only the bad entries of a batch', () => {
    const h = harness();
    h.client(line([{ jsonrpc: '2.0', id: 1, method: 'ping' }, { id: 2 }, 'nope']));
    assert.deepEqual(h.kinds(), [
      ['invalid-jsonrpc', 'client'],
      ['invalid-jsonrpc', 'client'],
    ]);
    assert.equal(h.monitor.pendingRequests, 1);
  });
});

describe('WireMonitor: chunk boundaries', () => {
  /** One write on the wire: who wrote it, when (on the fake clock), and its bytes. */
  type Write = { from: Direction; at: number; bytes: Buffer };

  const pretty = JSON.stringify({ jsonrpc: '2.0', id: 4, result: { text: 'zwölf 🙂 日本' } }, null, 2);
  const transcript: Write[] = [
    [
      'client',
      0,
      `${request(1, 'initialize', { protocolVersion: '2025-11-25' })}${line({ jsonrpc: '2.0', method: 'notifications/initialized' })}`,
    ],
    ['server', 3, `${result(1, { serverInfo: { name: 'ß∂ƒ' } })}debug: hello wörld\n`],
    ['client', 5, `${request(2, 'tools/call', { _meta: { progressToken: 9 }, note: 'héllo 🙂' })}`],
    [
      'server',
      8,
      `${line({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9 } })}${result(2)}`,
    ],
    ['server', 9, line({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 9 } })],
    ['client', 10, `${request(3)}${request(3)}not json at all\r\n`],
    ['server', 12, `{"jsonrpc":"2.0","id":3,"result":{"t":"a\nb"}}\r\n${result(77)}`],
    ['client', 13, `${request(4)}${line([{ jsonrpc: '2.0', id: 5, method: 'ping' }])}`],
    [
      'server',
      20,
      `${pretty}\n${line([{ jsonrpc: '2.0', id: 5, result: {} }])}{"jsonrpc":"2.0","result":{}}\n`,
    ],
    ['client', 21, request(6, 'never/answered')],
  ].map(([from, at, text]) => ({
    from: from as Direction,
    at: at as number,
    bytes: Buffer.from(text as string),
  }));

  /** Runs the transcript, cutting each write into chunks at `cuts` (fractions of its length). */
  function run(writes: Write[], cuts: (write: number) => number[]): Event[] {
    const h = harness();
    writes.forEach((write, index) => {
      h.at(write.at);
      const points = [...new Set(cuts(index).map((f) => Math.floor(f * write.bytes.length)))].sort(
        (a, b) => a - b,
      );
      let start = 0;
      for (const point of [...points, write.bytes.length]) {
        const chunk = write.bytes.subarray(start, point);
        if (write.from === 'client') h.monitor.clientBytes(chunk);
        else h.monitor.serverBytes(chunk);
        start = point;
      }
    });
    h.at(30);
    h.monitor.clientEnded();
    h.monitor.serverExited('exited with code 0');
    return h.events;
  }

  const whole = run(transcript, () => []);

  it('the transcript as whole writes produces the events it is meant to', () => {
    const kinds = whole.flatMap((e) => (e.type === 'problem' ? [`${e.problem.kind}/${e.problem.from}`] : []));
    assert.deepEqual(kinds, [
      'not-json/server',
      'progress-after-response/server',
      'duplicate-id/client',
      'not-json/client',
      'raw-newline/server',
      'unknown-response/server',
      'raw-newline/server',
      'response-to-notification/server',
      'unanswered/server',
      'unanswered/server',
    ]);
    const unanswered = whole.flatMap((e) =>
      e.type === 'problem' && e.problem.kind === 'unanswered' ? [e.problem.message] : [],
    );
    assert.match(unanswered[0]!, /^"never\/answered" \(id 6\)/);
    assert.match(unanswered[1]!, /^a line of the client that was not JSON never got a -32700/);
    const latencies = whole.flatMap((e) =>
      e.type === 'message' && e.message.latencyMs !== undefined ? [e.message.latencyMs] : [],
    );
    assert.deepEqual(latencies, [3, 3, 2, 7, 7]);
  });

  it('byte by byte gives the same events', () => {
    assert.deepEqual(
      run(transcript, (i) =>
        Array.from({ length: transcript[i]!.bytes.length }, (_, k) => k / transcript[i]!.bytes.length),
      ),
      whole,
    );
  });

  it('chunk boundaries anywhere, inside UTF-8 characters too, give the same events', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }), {
          minLength: transcript.length,
          maxLength: transcript.length,
        }),
        (cuts) => {
          assert.deepEqual(
            run(transcript, (i) => cuts[i]!),
            whole,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random messages split anywhere give the same events as whole lines', () => {
    const message = fc.oneof(
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.oneof(fc.integer(), fc.string()),
        method: fc.string(),
        params: fc.dictionary(fc.string(), fc.jsonValue()),
      }),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer({ min: 0, max: 5 }), result: fc.jsonValue() }),
      fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string() }),
      fc.jsonValue(),
    );
    const encoded = fc.oneof(
      message.map((m) => `${JSON.stringify(m)}\n`),
      message.map((m) => `${JSON.stringify(m, null, 2)}\n`),
      fc.string({ unit: 'grapheme' }).map((s) => `${s}\n`),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom<Direction>('client', 'server'), encoded), { maxLength: 12 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }),
        (lines, cuts) => {
          const writes = lines.map(([from, text], i) => ({ from, at: i, bytes: Buffer.from(text) }));
          assert.deepEqual(
            run(writes, () => cuts),
            run(writes, () => []),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('wire monitor: cancelled requests are not faults', () => {
  it('bug: a subscriptions/listen the client cancelled was flagged as never answered; it is not', () => {
    const h = harness();
    h.client(request(1, 'subscriptions/listen', { notifications: {} }));
    h.client(request(2, 'tools/call', { name: 'slow' }));
    h.client(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }));
    assert.equal(h.monitor.pendingRequests, 1, 'the cancelled request is no longer waited for');
    h.monitor.clientEnded();
    h.monitor.serverExited('exited with code 0');
    const unanswered = h.problems().filter((p) => p.kind === 'unanswered');
    assert.equal(unanswered.length, 1);
    assert.match(unanswered[0]!.message, /"tools\/call" \(id 2\) was never answered/);
  });

  it('a cancelled request that is answered anyway is matched as usual', () => {
    const h = harness();
    h.client(request(7, 'tools/call', { name: 'slow' }));
    h.client(line({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 7 } }));
    h.server(result(7));
    assert.deepEqual(h.kinds(), []);
    assert.equal(h.monitor.pendingRequests, 0);
  });
});
