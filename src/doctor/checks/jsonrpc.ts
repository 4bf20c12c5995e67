// JSON-RPC 2.0 behaviour: error codes, notifications, ids, pipelining.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { type Check, ensure, errorOf, fail, skip, stillAlive } from '../check.js';

const JSONRPC = 'JSON-RPC 2.0';

export const jsonRpcChecks: Check[] = [
  {
    id: 'parse-error',
    title: 'invalid JSON gets -32700 with id null, and the server keeps going',
    rule: { source: `${JSONRPC} §5.1`, text: 'Invalid JSON was received: -32700 Parse error, with id null.' },
    hint: 'Catch JSON.parse failures per line and answer {"jsonrpc":"2.0","id":null,"error":{"code":-32700,...}}.',
    async run(peer) {
      await peer.initialize();
      peer.write('{"jsonrpc": "2.0", "id": 1, "method": "ping", oops}\n');
      const response = await peer.response(null, 'a -32700 response with id null');
      const error = errorOf(response, 'a parse error');
      ensure(error.code === ErrorCode.ParseError, `the code is ${error.code}, not -32700`);
      await stillAlive(peer);
      return undefined;
    },
  },
  {
    id: 'invalid-request',
    title: 'an invalid request gets -32600 and the server keeps going',
    rule: {
      source: `${JSONRPC} §5.1`,
      text: 'The JSON sent is not a valid Request object: -32600 Invalid Request.',
    },
    hint: 'Check "jsonrpc", "method" and "id" before dispatching; answer with the id when it can be read.',
    async run(peer) {
      await peer.initialize();
      peer.send({ jsonrpc: '2.0', id: 'doctor-invalid', method: 42 });
      const response = await peer.waitFor(
        () =>
          (peer.responsesTo('doctor-invalid')[0] ?? peer.responsesTo(null)[0]) as
            | Record<string, unknown>
            | undefined,
        'a response to an invalid request',
      );
      const error = errorOf(response, 'an invalid-request error');
      ensure(error.code === ErrorCode.InvalidRequest, `the code is ${error.code}, not -32600`);
      await stillAlive(peer);
      return undefined;
    },
  },
  {
    id: 'invalid-params',
    title: 'invalid params get -32602',
    rule: { source: `${JSONRPC} §5.1`, text: 'Invalid method parameter(s): -32602 Invalid params.' },
    hint: 'Validate params before use and answer -32602 with a message that names the problem.',
    async run(peer) {
      const init = await peer.initialize();
      const capabilities = init.capabilities as Record<string, unknown>;
      let method: string;
      let params: Record<string, unknown>;
      if (capabilities.tools) [method, params] = ['tools/call', {}];
      else if (capabilities.prompts) [method, params] = ['prompts/get', {}];
      else if (capabilities.resources) [method, params] = ['resources/read', {}];
      else if (capabilities.logging) [method, params] = ['logging/setLevel', { level: 'not-a-level' }];
      else return skip('the server declares no capability with a method to send bad params to');
      const response = await peer.request(method, params);
      const error = errorOf(response, `-32602 for ${method} ${JSON.stringify(params)}`);
      ensure(
        error.code === ErrorCode.InvalidParams,
        `${method} ${JSON.stringify(params)} got code ${error.code}, not -32602`,
      );
      return undefined;
    },
  },
  {
    id: 'unknown-method',
    title: 'an unknown method gets -32601',
    rule: { source: `${JSONRPC} §5.1`, text: 'The method does not exist: -32601 Method not found.' },
    hint: 'Answer every request you do not handle with -32601; never leave it unanswered.',
    async run(peer) {
      await peer.initialize();
      const error = errorOf(await peer.request('mcpwire/no-such-method', {}), 'a method-not-found error');
      ensure(error.code === ErrorCode.MethodNotFound, `the code is ${error.code}, not -32601`);
      return undefined;
    },
  },
  {
    id: 'notifications-unanswered',
    title: 'notifications never get a response, not even an error',
    rule: {
      source: `${JSONRPC} §4.1`,
      text: 'The Server MUST NOT reply to a Notification, including those within a batch request.',
    },
    hint: 'A message without "id" is a notification: handle it or ignore it, but write nothing back.',
    async run(peer) {
      await peer.initialize();
      const before = peer.frames.length;
      peer.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      peer.send({ jsonrpc: '2.0', method: 'notifications/mcpwire-unknown', params: {} });
      peer.send({ jsonrpc: '2.0', method: 'mcpwire/not-a-method' });
      // A request after them is answered in order; anything else that answers is a reply to a notification.
      await peer.request('ping', undefined, 'doctor-after-notifications');
      const replies = peer.frames.slice(before).filter((f) => {
        const v = f.value as Record<string, unknown> | undefined;
        return v && !('method' in v) && v.id !== 'doctor-after-notifications';
      });
      ensure(
        replies.length === 0,
        `the server answered a notification: ${replies
          .map((r) => r.text)
          .join(' | ')
          .slice(0, 300)}`,
      );
      return undefined;
    },
  },
  {
    id: 'id-echo',
    title: 'ids are echoed back exactly, with their type',
    rule: {
      source: `${JSONRPC} §5`,
      text: 'The response id MUST be the same as the value of the id member in the Request.',
    },
    hint: 'Store the id as parsed and write it back unchanged: "1" is not 1, "" is not 0.',
    async run(peer) {
      await peer.initialize();
      const ids: Array<string | number> = ['7', 7, '', 0, -3, 'ünïcødé 🙂', 2 ** 40];
      for (const id of ids) peer.send({ jsonrpc: '2.0', id, method: 'ping' });
      for (const id of ids) {
        const response = await peer
          .waitFor(() => peer.responsesTo(id)[0], `a response with id ${JSON.stringify(id)}`)
          .catch(() => fail(`no response carries id ${JSON.stringify(id)} (${typeof id}) exactly`));
        ensure(response !== undefined, `missing response to ${JSON.stringify(id)}`);
      }
      return undefined;
    },
  },
  {
    id: 'pipelining',
    title: '32 requests in flight are all answered, matched by id',
    rule: {
      source: `${JSONRPC} §5`,
      text: 'Each request gets exactly one response, identified by its id; responses may come in any order.',
    },
    hint: 'Handle requests concurrently and answer each exactly once.',
    async run(peer) {
      await peer.initialize();
      const ids = Array.from({ length: 32 }, (_, i) => `pipe-${i}`);
      peer.write(ids.map((id) => `${JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' })}\n`).join(''));
      await peer.waitFor(
        () => (ids.every((id) => peer.responsesTo(id).length > 0) ? true : undefined),
        'all 32 responses',
      );
      const doubled = ids.filter((id) => peer.responsesTo(id).length > 1);
      ensure(doubled.length === 0, `answered more than once: ${doubled.join(', ')}`);
      return undefined;
    },
  },
];
