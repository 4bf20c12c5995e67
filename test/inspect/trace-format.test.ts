// How trace writes its records: one JSON object per line, or one readable line per event.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatRecord, type TraceRecord } from '../../src/inspect/trace-format.js';

const time = '2026-01-02T03:04:05.678Z';

describe('formatRecord', () => {
  it('jsonl: each record is one line that parses back to the record', () => {
    const records: TraceRecord[] = [
      {
        type: 'message',
        time,
        from: 'server',
        payload: { jsonrpc: '2.0', id: 1, result: { text: 'a\nb 🙂' } },
        latencyMs: 1.5,
        answers: 'ping',
      },
      { type: 'problem', time, kind: 'raw-newline', from: 'server', message: 'm', bytes: '{\n}' },
      { type: 'stderr', time, text: 'line one\nline two\n' },
      { type: 'exit', time, code: null, signal: 'SIGTERM' },
    ];
    for (const record of records) {
      const text = formatRecord(record, 'jsonl', false);
      assert.ok(text.endsWith('\n'));
      assert.equal(text.indexOf('\n'), text.length - 1, 'exactly one line');
      assert.deepEqual(JSON.parse(text), record);
    }
  });

  it('pretty: the direction, the method and latency of a response, and the time of day', () => {
    assert.equal(
      formatRecord(
        { type: 'message', time, from: 'client', payload: { jsonrpc: '2.0', id: 1, method: 'ping' } },
        'pretty',
        false,
      ),
      '03:04:05.678 → {"jsonrpc":"2.0","id":1,"method":"ping"}\n',
    );
    assert.equal(
      formatRecord(
        {
          type: 'message',
          time,
          from: 'server',
          payload: { jsonrpc: '2.0', id: 1, result: {} },
          latencyMs: 2.25,
          answers: 'ping',
        },
        'pretty',
        false,
      ),
      '03:04:05.678 ← ping 2.3ms {"jsonrpc":"2.0","id":1,"result":{}}\n',
    );
  });

  it('pretty: long payloads are cut, problems show their bytes escaped on one line', () => {
    const long = formatRecord(
      { type: 'message', time, from: 'server', payload: { text: 'x'.repeat(1000) } },
      'pretty',
      false,
    );
    assert.match(long, /… \(1011 chars\)\n$/);
    assert.equal(long.split('\n').length, 2);
    const problem = formatRecord(
      { type: 'problem', time, kind: 'not-json', from: 'server', message: 'not JSON', bytes: 'a\nb' },
      'pretty',
      false,
    );
    assert.equal(problem, `03:04:05.678 ✗ not-json (server) not JSON\n${' '.repeat(13)}bytes: "a\\nb"\n`);
  });

  it('pretty: stderr without its final newline, exits by code or signal, colour only when asked', () => {
    assert.equal(
      formatRecord({ type: 'stderr', time, text: 'ready\n' }, 'pretty', false),
      '03:04:05.678 stderr ready\n',
    );
    assert.equal(
      formatRecord({ type: 'exit', time, code: 3, signal: null }, 'pretty', false),
      '03:04:05.678 server exited with code 3\n',
    );
    assert.equal(
      formatRecord({ type: 'exit', time, code: null, signal: 'SIGKILL' }, 'pretty', false),
      '03:04:05.678 server exited by SIGKILL\n',
    );
    const plain = formatRecord({ type: 'exit', time, code: 0, signal: null }, 'pretty', false);
    const coloured = formatRecord({ type: 'exit', time, code: 0, signal: null }, 'pretty', true);
    const esc = String.fromCharCode(27);
    assert.ok(!plain.includes(esc));
    assert.ok(coloured.includes(`${esc}[`));
    assert.equal(coloured.replace(new RegExp(`${esc}\\[\\d+m`, 'g'), ''), plain);
  });
});
