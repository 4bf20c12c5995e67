// The stdio transport: framing edge cases, stdout purity, and process lifetime; and batches, which
// are JSON-RPC's and run over HTTP too.

import { classify } from '../../jsonrpc/messages.js';
import { type Check, ensure, fail, skip, stillAlive, warn } from '../check.js';
import { HttpPeer } from '../http-peer.js';
import { describeExit } from '../peer.js';

const STDIO = 'MCP 2025-11-25 basic/transports#stdio';

const ping = (id: string, extra?: object) =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { _meta: extra ?? {} } });

/** How long split-bytes pauses inside a multi-byte character, so that its halves are two reads. */
const SPLIT_PAUSE_MS = 20;

export const stdioChecks: Check[] = [
  {
    id: 'split-bytes',
    on: 'stdio',
    title: 'a message split byte by byte, also inside UTF-8 characters, is read whole',
    rule: {
      source: STDIO,
      text: 'Messages are delimited by newlines; a reader must not assume one message per read. Messages are UTF-8, decoded as a whole: a character split across two reads is one character.',
    },
    hint: 'Buffer input until the newline and decode bytes to text only per complete line (or use a streaming decoder, such as StringDecoder).',
    async run(peer) {
      await peer.initialize();
      // The id carries the multi-byte characters, since every answer echoes it: a server that decodes each
      // read on its own turns the split characters into U+FFFD and answers an id nobody sent.
      const id = 'split-héllo-🙂-日本';
      const bytes = Buffer.from(`${ping(id, { note: 'wörld' })}\n`);
      for (let i = 0; i < bytes.length; i++) {
        peer.write(bytes.subarray(i, i + 1));
        // Inside a multi-byte character (a continuation byte comes next), a pause long enough for the
        // server to read what came so far: written back to back, the pipe hands it all over in one read.
        const next = bytes[i + 1];
        const inside = next !== undefined && next >= 0x80 && next < 0xc0;
        await new Promise((resolve) =>
          inside ? setTimeout(resolve, SPLIT_PAUSE_MS) : setImmediate(resolve),
        );
      }
      await peer.waitFor(
        () => {
          if (peer.responsesTo(id).length > 0) return true;
          const mangled = peer.frames.find((f) => {
            const got = (f.value as { id?: unknown } | undefined)?.id;
            return typeof got === 'string' && got.startsWith('split-') && got !== id;
          });
          if (mangled) {
            fail(
              `the id ${JSON.stringify(id)}, written a byte at a time, came back as ${JSON.stringify((mangled.value as { id: string }).id)}: the server decodes each read as UTF-8 on its own, so a character split across reads is lost`,
            );
          }
          return undefined;
        },
        `a response to id ${JSON.stringify(id)}`,
      );
      return undefined;
    },
  },
  {
    id: 'two-in-one-write',
    on: 'stdio',
    title: 'two messages in one write are both answered',
    rule: { source: STDIO, text: 'Messages are delimited by newlines.' },
    hint: 'Split each chunk on every newline, not just the first.',
    async run(peer) {
      await peer.initialize();
      peer.write(`${ping('first')}\n${ping('second')}\n`);
      await peer.response('first');
      await peer.response('second');
      return undefined;
    },
  },
  {
    id: 'crlf',
    on: 'stdio',
    title: 'a message ending in \\r\\n is accepted',
    rule: { source: STDIO, text: 'Messages are delimited by newlines (a Windows client may send \\r\\n).' },
    hint: 'Strip a trailing \\r before parsing each line.',
    async run(peer) {
      await peer.initialize();
      peer.write(`${ping('crlf')}\r\n`);
      await peer.response('crlf');
      return undefined;
    },
  },
  {
    id: 'large-request',
    on: 'stdio',
    title: 'a 32 MiB request is answered',
    rule: {
      source: STDIO,
      text: 'Messages may be large; the transport defines no size limit. Clients send tool arguments and resources of many MiB; 32 MiB is well above the 10 MiB some servers stop at.',
    },
    hint: 'Do not cap lines at a small size, and keep reading linear in the message size.',
    async run(peer) {
      await peer.initialize();
      peer.write(`${ping('large', { padding: 'x'.repeat(32 * 1024 * 1024) })}\n`);
      await peer.response('large', 'a response to a 32 MiB request');
      return undefined;
    },
  },
  {
    id: 'deep-nesting',
    on: 'stdio',
    title: 'a deeply nested request is answered (or refused) and the server goes on',
    rule: {
      source: 'JSON-RPC 2.0 §5.1; RFC 8259 §9',
      text: 'A parser may limit nesting, but a message it cannot take must be answered with an error, not crash the server: a recursive walk over 100,000 levels overflows the stack.',
    },
    hint: 'Walk parsed values without recursion (or cap the depth and answer -32600/-32602 beyond it).',
    async run(peer) {
      await peer.initialize();
      const depth = 100_000;
      peer.write(
        `{"jsonrpc":"2.0","id":"deep","method":"ping","params":{"_meta":{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}}}\n`,
      );
      await peer.response('deep', `an answer to a request nested ${depth} levels deep`);
      await stillAlive(peer);
      return undefined;
    },
  },
  {
    id: 'flood',
    on: 'stdio',
    title: 'after a flood of 20,000 requests the server still answers',
    rule: {
      source: STDIO,
      text: 'A server answers every request; a burst is queued and answered, not a reason to stop reading or answering.',
    },
    hint: 'Keep reading stdin under load and answer each request (apply backpressure on the output instead of dropping state).',
    async run(peer) {
      await peer.initialize();
      const count = 20_000;
      const lines: string[] = [];
      for (let i = 0; i < count; i++) lines.push(ping(`flood-${i}`));
      peer.write(`${lines.join('\n')}\n`);
      await peer.response(`flood-${count - 1}`, `the answer to the last of ${count} requests sent at once`);
      await stillAlive(peer);
      return undefined;
    },
  },
  {
    id: 'large-response',
    on: 'stdio',
    title: 'a 4 MiB response arrives whole, as one line of valid JSON',
    rule: { source: STDIO, text: 'Messages may be large; each one is a single line of JSON.' },
    hint: 'Write each message with one newline at its end, and honour back-pressure (wait for "drain") so a large write is never cut or interleaved.',
    async run(peer) {
      // A black box answers large only when asked to repeat something: an `echo` tool does, and so does
      // an error message that quotes the unknown method it names. Nothing else is called: tools may act.
      const init = await peer.initialize();
      const size = 4 * 1024 * 1024;
      const echo = (init.capabilities as Record<string, unknown>).tools
        ? (
            (await peer.request('tools/list', {})).result as { tools?: Array<Record<string, unknown>> }
          )?.tools?.find((t) => t.name === 'echo')
        : undefined;
      const property = Object.keys(
        ((echo?.inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ??
          {}) as object,
      )[0];
      const response =
        echo && property
          ? await peer.request('tools/call', { name: 'echo', arguments: { [property]: 'x'.repeat(size) } })
          : await peer.request(`doctor/${'x'.repeat(size)}`, {});
      const length = peer.frames.find((f) => f.value === response)?.text.length ?? 0;
      if (length < size) {
        return skip(
          `the server's answer was ${length} bytes (it did not repeat the ${echo ? 'echo argument' : 'unknown method name'}); no way to ask it for a large response`,
        );
      }
      return undefined;
    },
  },
  {
    id: 'stdout-purity',
    on: 'stdio',
    title: 'stdout carries only JSON-RPC messages',
    rule: {
      source: STDIO,
      text: 'The server MUST NOT write anything to its stdout that is not a valid MCP message.',
    },
    hint: 'Send logs and prints to stderr (console.error), never console.log.',
    async run(peer) {
      const init = await peer.initialize();
      const capabilities = init.capabilities as Record<string, unknown>;
      if (capabilities.tools) await peer.request('tools/list', {});
      if (capabilities.resources) await peer.request('resources/list', {});
      if (capabilities.prompts) await peer.request('prompts/list', {});
      await peer.request('ping');
      const bad = peer.frames.filter(
        (f) =>
          !f.json ||
          (Array.isArray(f.value) ? f.value : [f.value]).some((v) => classify(v).kind === 'invalid'),
      );
      ensure(
        bad.length === 0,
        `stdout had ${bad.length} line(s) that are not JSON-RPC, e.g. ${JSON.stringify(bad[0]?.text.slice(0, 160))}`,
      );
      return undefined;
    },
  },
  {
    id: 'stdin-end',
    on: 'stdio',
    title: 'on stdin end the server answers what is in flight, then exits',
    rule: {
      source: 'MCP 2025-11-25 basic/lifecycle#stdio',
      text: "The client closes the server's input stream to shut it down; the server should then exit.",
    },
    hint: 'On stdin "end", finish in-flight requests, flush stdout, and exit.',
    async run(peer) {
      await peer.initialize();
      peer.send({ jsonrpc: '2.0', id: 'last', method: 'ping' });
      peer.endInput();
      const exited = await peer.waitForExit(5000);
      const answered = peer.responsesTo('last').length > 0;
      if (!exited) fail('the server was still running 5 s after its stdin closed');
      ensure(
        answered,
        `the server exited (${describeExit(peer.exit!)}) without answering the request in flight`,
      );
      if (peer.exit?.code !== 0)
        return warn(`exited with ${describeExit(peer.exit!)}; 0 is expected for a normal shutdown`);
      return undefined;
    },
  },
  {
    id: 'sigterm',
    on: 'stdio',
    title: 'SIGTERM ends the server',
    rule: {
      source: 'MCP 2025-11-25 basic/lifecycle#stdio',
      text: 'If the server does not exit after its input closes, the client sends SIGTERM.',
    },
    hint: 'Do not ignore SIGTERM; exit promptly (after cleanup).',
    async run(peer) {
      if (process.platform === 'win32') return skip('no signals on Windows');
      await peer.initialize();
      peer.signal('SIGTERM');
      ensure(await peer.waitForExit(5000), 'the server was still running 5 s after SIGTERM');
      return undefined;
    },
  },
  {
    id: 'batch-2025-03-26',
    title: 'a JSON-RPC batch is answered as an array in a 2025-03-26 session',
    rule: {
      source: 'MCP 2025-03-26 basic#batching',
      text: 'Implementations MUST support receiving JSON-RPC batches.',
    },
    hint: 'In 2025-03-26 sessions, answer an array of requests with an array of responses.',
    async run(peer) {
      const init = await peer.initialize('2025-03-26');
      if (init.protocolVersion !== '2025-03-26')
        return skip(`the server negotiated ${String(init.protocolVersion)}, not 2025-03-26`);
      peer.write(
        `${JSON.stringify([
          { jsonrpc: '2.0', id: 'b1', method: 'ping' },
          { jsonrpc: '2.0', id: 'b2', method: 'ping' },
        ])}\n`,
      );
      if (peer instanceof HttpPeer) {
        // Over HTTP the answers may come as events of one SSE stream, batched or not (2025-03-26
        // transports, "Sending Messages to the Server").
        await peer
          .waitFor(
            () => (peer.responsesTo('b1').length > 0 && peer.responsesTo('b2').length > 0 ? true : undefined),
            'the answers to both requests of the batch',
          )
          .catch((error: Error) => fail(`the batch was not answered: ${error.message}`));
        return undefined;
      }
      const array = await peer
        .waitFor(
          () => peer.frames.find((f) => Array.isArray(f.value))?.value as unknown[] | undefined,
          'a batch response',
        )
        .catch((error: Error) => fail(`no array came back: ${error.message}`));
      ensure(array.length === 2, `the batch response has ${array.length} entries, not 2`);
      return undefined;
    },
  },
  {
    id: 'batch-2025-11-25',
    title: 'a JSON-RPC batch is refused in a 2025-11-25 session',
    rule: {
      source: 'MCP 2025-06-18 changelog',
      text: 'Support for JSON-RPC batching was removed; a message is one JSON-RPC object.',
    },
    hint: 'From 2025-06-18 on, answer an array with -32600 Invalid Request instead of processing it.',
    async run(peer) {
      const init = await peer.initialize('2025-11-25');
      if (init.protocolVersion !== '2025-11-25')
        return skip(`the server negotiated ${String(init.protocolVersion)}`);
      peer.write(
        `${JSON.stringify([
          { jsonrpc: '2.0', id: 'n1', method: 'ping' },
          { jsonrpc: '2.0', id: 'n2', method: 'ping' },
        ])}\n`,
      );
      await peer.request('ping', undefined, 'after-batch');
      const asArray = peer.frames.find((f) => Array.isArray(f.value));
      const answers = [
        ...peer.responsesTo('n1'),
        ...peer.responsesTo('n2'),
        ...peer.responsesTo(null),
      ] as Array<Record<string, unknown>>;
      if (asArray && (asArray.value as Array<Record<string, unknown>>).every((r) => 'result' in r)) {
        fail('the batch was processed as in 2025-03-26');
      }
      if (answers.some((r) => 'result' in r)) fail('requests inside the batch were run');
      if (answers.length === 0 && !asArray)
        return warn('the batch got no response at all; an error (-32600) tells the client why');
      return undefined;
    },
  },
];
