// The Streamable HTTP binding's own rules, for a server doctor reaches by URL: sessions, what a POST is
// answered with, the GET stream and its resumption, the version header, the Origin check of a local
// server, and the stateless revision's metadata headers. Each check opens a session of its own.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { classify } from '../../jsonrpc/messages.js';
import { requestMetadataHeaders } from '../../protocol/http/metadata-headers.js';
import { type ParamHeader, paramHeaders, paramHeadersOf } from '../../protocol/http/param-headers.js';
import { type Check, type CheckOutcome, ensure, fail, skip, warn } from '../check.js';
import { ACCEPT_BOTH, type HttpExchange, type HttpPeer, shownAnswer } from '../http-peer.js';
import { initializeMessage } from '../peer.js';
import { discover, STATELESS_META } from './stateless.js';

const SPEC = 'MCP 2025-11-25 basic/transports';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const POST_HEADERS = { ...JSON_TYPE, Accept: ACCEPT_BOTH };

const ping = (id: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });

/** "HTTP 400 text/plain: Bad Request", for a detail. */
const shown = (answer: HttpExchange) => shownAnswer(answer);

const ok = (status: number) => status >= 200 && status < 300;

/** The JSON-RPC messages of an answer: its JSON body, or each SSE event's data; with what was not one. */
function messagesOf(answer: HttpExchange): { messages: unknown[]; bad: string[] } {
  const messages: unknown[] = [];
  const bad: string[] = [];
  const texts = answer.contentType.includes('text/event-stream')
    ? answer.events.map((e) => e.data).filter((d) => d !== '')
    : [answer.text];
  for (const text of texts) {
    try {
      const value = JSON.parse(text) as unknown;
      if (classify(value).kind === 'invalid') bad.push(text);
      else messages.push(value);
    } catch {
      bad.push(text);
    }
  }
  return { messages, bad };
}

export const httpChecks: Check[] = [
  {
    id: 'http-session',
    on: 'http',
    title: 'a session id, if the server issues one, is required on later requests',
    rule: {
      source: `${SPEC}#session-management`,
      text: 'A server may issue Mcp-Session-Id on the initialize answer; then clients MUST send it, and a server that requires it SHOULD answer a request without it with 400.',
    },
    hint: 'Send Mcp-Session-Id (visible ASCII) on the answer to initialize, and answer a request without it with 400 Bad Request.',
    async run(peer) {
      await peer.initialize();
      const id = peer.sessionId;
      const bare = await peer.exchange('POST', {
        headers: POST_HEADERS,
        body: ping('no-session'),
        session: false,
      });
      if (id === undefined) {
        ensure(
          ok(bare.status),
          `the server issued no Mcp-Session-Id on the answer to initialize, yet refused a request without one (${shown(bare)})`,
        );
        return skip(
          'the server issues no session id: it keeps no sessions, and the other session rules do not apply',
        );
      }
      ensure(/^[\x21-\x7e]+$/.test(id), `the session id ${JSON.stringify(id)} is not visible ASCII`);
      if (bare.status === 400) return undefined;
      if (ok(bare.status)) return warn('a request without the session id it issued was answered; 400 is due');
      if (bare.status === 404)
        return warn(
          'a request without a session id got 404, which tells a client its session ended; 400 is due',
        );
      fail(`a request without the session id got ${shown(bare)}; 400 is due`);
    },
  },
  {
    id: 'http-session-ended',
    on: 'http',
    title: 'an unknown or ended session gets 404; DELETE ends a session',
    rule: {
      source: `${SPEC}#session-management`,
      text: 'After a session ends the server MUST answer requests with its id with 404 Not Found; a client SHOULD end its session with DELETE, which the server may refuse with 405.',
    },
    hint: 'Answer 404 for a session id you do not know (any longer), and end a session on DELETE (or answer 405).',
    async run(peer) {
      await peer.initialize();
      if (peer.sessionId === undefined) return skip('the server issues no session id');
      const stranger = await peer.exchange('POST', {
        headers: POST_HEADERS,
        body: ping('stranger'),
        session: 'mcpwire-doctor-no-such-session',
      });
      ensure(!ok(stranger.status), `a session id the server never issued was accepted (${shown(stranger)})`);
      ensure(
        stranger.status === 404,
        `a session id the server never issued got ${shown(stranger)}; 404 is due, which tells the client to start again`,
      );
      const ended = await peer.exchange('DELETE');
      if (ended.status === 405) {
        return {
          status: 'pass',
          details: ['the server does not let clients end sessions (405), which is allowed'],
        };
      }
      ensure(ok(ended.status), `DELETE got ${shown(ended)}; 2xx (ended) or 405 (not allowed) is due`);
      const after = await peer.exchange('POST', { headers: POST_HEADERS, body: ping('after-delete') });
      const id = peer.sessionId;
      peer.sessionId = undefined;
      ensure(
        after.status === 404,
        `after DELETE, a request of session ${id} got ${shown(after)}; 404 is due`,
      );
      return undefined;
    },
  },
  {
    id: 'http-post-answer',
    on: 'http',
    title: 'a request is answered as JSON or as SSE, each event one JSON-RPC message',
    rule: {
      source: `${SPEC}#sending-messages-to-the-server`,
      text: 'A POSTed request is answered with Content-Type application/json (one response) or text/event-stream, whose events each carry one JSON-RPC message.',
    },
    hint: 'Answer with application/json, or write each JSON-RPC message as one SSE event (data lines of one message, then a blank line).',
    async run(peer) {
      const init = await peer.initialize();
      const bodies = [ping('answer')];
      if ((init.capabilities as Record<string, unknown> | undefined)?.tools)
        bodies.push(JSON.stringify({ jsonrpc: '2.0', id: 'answer-tools', method: 'tools/list', params: {} }));
      ensure(
        peer.badEvents.length === 0,
        `an SSE event is not one JSON-RPC message: ${peer.badEvents[0]?.slice(0, 160)}`,
      );
      for (const body of bodies) {
        const id = (JSON.parse(body) as { id: string }).id;
        const answer = await peer.exchange('POST', { headers: POST_HEADERS, body });
        ensure(answer.status === 200, `the request ${id} got ${shown(answer)}; 200 is due`);
        const json = answer.contentType.includes('application/json');
        ensure(
          json || answer.contentType.includes('text/event-stream'),
          `the answer to ${id} has Content-Type ${JSON.stringify(answer.contentType)}: application/json or text/event-stream is due`,
        );
        const { messages, bad } = messagesOf(answer);
        ensure(
          bad.length === 0,
          `${json ? 'the body' : 'an SSE event'} of the answer to ${id} is not one JSON-RPC message: ${JSON.stringify(bad[0]?.slice(0, 160))}`,
        );
        const answered = messages.some((m) => {
          const c = classify(m);
          return c.kind === 'response' && c.message.id === id;
        });
        ensure(answered, `the answer to ${id} does not carry its response (${shown(answer)})`);
      }
      return undefined;
    },
  },
  {
    id: 'http-accept',
    on: 'http',
    title: 'the answer is in a type the client accepts, or 406',
    rule: {
      source: `${SPEC}#sending-messages-to-the-server; RFC 9110 §12.5.1`,
      text: 'The client lists what it accepts in Accept; a server answers in one of those types, or 406 Not Acceptable.',
    },
    hint: 'Read Accept: answer JSON to a client that accepts only application/json (or 406), and 406 to one that accepts neither.',
    async run(peer) {
      await peer.initialize();
      const jsonOnly = await peer.exchange('POST', {
        headers: { ...JSON_TYPE, Accept: 'application/json' },
        body: ping('json-only'),
      });
      ensure(
        !jsonOnly.contentType.includes('text/event-stream'),
        'a client that accepts only application/json was answered with text/event-stream',
      );
      const neither = await peer.exchange('POST', {
        headers: { ...JSON_TYPE, Accept: 'text/html' },
        body: ping('html-only'),
      });
      ensure(
        !ok(neither.status),
        `a client that accepts neither JSON nor SSE (Accept: text/html) was answered (${shown(neither)}); 406 is due`,
      );
      if (neither.status !== 406) return warn(`Accept: text/html got ${shown(neither)}; 406 says why`);
      return undefined;
    },
  },
  {
    id: 'http-202',
    on: 'http',
    title: 'a notification or a response POSTed gets 202 with no body',
    rule: {
      source: `${SPEC}#sending-messages-to-the-server`,
      text: 'If the input is a notification or a response and the server accepts it, it MUST answer 202 Accepted with no body; otherwise an HTTP error status.',
    },
    hint: 'Answer a POST that holds no request with 202 and an empty body.',
    async run(peer) {
      await peer.initialize();
      const note = await peer.exchange('POST', {
        headers: POST_HEADERS,
        body: JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 'doctor-nothing-in-flight', reason: 'mcpwire doctor' },
        }),
      });
      ensure(
        !ok(note.status) || (note.status === 202 && note.text === ''),
        `a notification got ${shown(note)}; 202 with no body is due`,
      );
      const response = await peer.exchange('POST', {
        headers: POST_HEADERS,
        body: JSON.stringify({ jsonrpc: '2.0', id: 'doctor-unasked', result: {} }),
      });
      ensure(
        !ok(response.status) || (response.status === 202 && response.text === ''),
        `a response got ${shown(response)}; 202 with no body (or an error status) is due`,
      );
      if (!ok(note.status)) return warn(`a notification was refused: ${shown(note)}`);
      return undefined;
    },
  },
  {
    id: 'http-status-codes',
    on: 'http',
    title: 'a body that is not JSON gets 415, a method the endpoint lacks 405',
    rule: {
      source: `${SPEC}#streamable-http; RFC 9110 §15.5.6, §15.5.16`,
      text: 'The endpoint takes POST (JSON), GET (SSE) and DELETE; other methods get 405 Method Not Allowed, another media type 415 Unsupported Media Type.',
    },
    hint: 'Answer PUT/PATCH with 405 (and Allow), a POST whose Content-Type is not application/json with 415, a GET without Accept: text/event-stream with 406 or 405.',
    async run(peer) {
      await peer.initialize();
      const problems: string[] = [];
      const plain = await peer.exchange('POST', {
        headers: { 'Content-Type': 'text/plain', Accept: ACCEPT_BOTH },
        body: ping('text-plain'),
      });
      if (plain.status >= 500 || !plain.ended) fail(`a text/plain body got ${shown(plain)}`);
      if (plain.status !== 415) problems.push(`a text/plain body got ${shown(plain)}; 415 is due`);
      const put = await peer.exchange('PUT', { headers: POST_HEADERS, body: ping('put') });
      if (ok(put.status)) fail(`PUT was answered as if it were POST (${shown(put)}); 405 is due`);
      if (put.status !== 405) problems.push(`PUT got ${shown(put)}; 405 is due`);
      const get = await peer.exchange('GET', { headers: { Accept: 'application/json' }, readMs: 2000 });
      if (get.contentType.includes('text/event-stream'))
        problems.push('a GET that accepts only application/json got an SSE stream; 406 or 405 is due');
      return problems.length > 0 ? warn(...problems) : undefined;
    },
  },
  {
    id: 'http-get-stream',
    on: 'http',
    title: "GET opens the session's SSE stream (or 405), one per session",
    rule: {
      source: `${SPEC}#listening-for-messages-from-the-server`,
      text: 'A GET with Accept: text/event-stream MUST get Content-Type text/event-stream or 405 Method Not Allowed.',
    },
    hint: 'Answer GET with an SSE stream for the session (a second one at a time with 409), or with 405 if you offer none.',
    async run(peer) {
      await peer.initialize();
      const first = await peer.openStream();
      try {
        if (first.status === 405) return skip('the server offers no GET stream (405), which is allowed');
        ensure(
          first.status === 200 && first.contentType.includes('text/event-stream'),
          `GET with Accept: text/event-stream got HTTP ${first.status} ${first.contentType}; an SSE stream or 405 is due`,
        );
        const second = await peer.openStream();
        second.close();
        if (ok(second.status))
          return warn(
            'a second GET stream of the same session was opened too: which one carries a message is then a guess (409 says no)',
          );
        return undefined;
      } finally {
        first.close();
      }
    },
  },
  {
    id: 'http-resumption',
    on: 'http',
    title: 'a stream with event ids resumes from Last-Event-ID',
    rule: {
      source: `${SPEC}#resumability-and-redelivery`,
      text: 'A server may give SSE events ids; a client resumes a broken stream with a GET that carries Last-Event-ID, and the server may replay what came after it.',
    },
    hint: 'Give events ids (2025-11-25: prime each stream with an event of an id and empty data), and take Last-Event-ID on GET.',
    async run(peer): Promise<CheckOutcome | undefined> {
      await peer.initialize();
      const stream = await peer.openStream();
      if (!(stream.status === 200 && stream.contentType.includes('text/event-stream'))) {
        stream.close();
        // Why it did not open is http-get-stream's to say.
        return skip(
          stream.status === 405
            ? 'the server offers no GET stream to resume'
            : `the GET stream did not open (HTTP ${stream.status}), so there is nothing to resume`,
        );
      }
      // A priming event comes at once when the server gives one; a server that gives none is not waited
      // for long.
      await stream.waitForEvents(1, Math.min(2000, peer.timeoutMs));
      stream.close();
      const id = stream.events.find((e) => e.id !== undefined && e.id !== '')?.id;
      if (id === undefined)
        return skip('the server gives its GET stream no event ids, so it cannot be resumed (allowed)');
      const resumed = await peer.openStream({ headers: { 'Last-Event-ID': id } });
      resumed.close();
      if (resumed.status >= 500) fail(`resuming from Last-Event-ID ${id} got HTTP ${resumed.status}`);
      if (!(resumed.status === 200 && resumed.contentType.includes('text/event-stream')))
        return warn(
          `resuming from the server's own event id ${id} got HTTP ${resumed.status} ${resumed.contentType}`,
        );
      return undefined;
    },
  },
  {
    id: 'http-protocol-version',
    on: 'http',
    title: 'an unsupported MCP-Protocol-Version gets 400; none means 2025-03-26',
    rule: {
      source: `${SPEC}#protocol-version-header`,
      text: 'A server that gets an invalid or unsupported MCP-Protocol-Version MUST answer 400 Bad Request; without the header it SHOULD assume 2025-03-26.',
    },
    hint: 'Check MCP-Protocol-Version on every request after initialize: 400 for a version you do not speak, and accept a request without it.',
    async run(peer) {
      await peer.initialize();
      const wrong = await peer.exchange('POST', {
        headers: { ...POST_HEADERS, 'MCP-Protocol-Version': '1999-01-01' },
        body: ping('old-version'),
      });
      ensure(wrong.status === 400, `MCP-Protocol-Version: 1999-01-01 got ${shown(wrong)}; 400 is due`);
      const without = await peer.exchange('POST', {
        headers: POST_HEADERS,
        body: ping('no-version'),
        session: peer.sessionId ?? false,
      });
      if (!ok(without.status))
        return warn(
          `a request without MCP-Protocol-Version got ${shown(without)}; the server should assume 2025-03-26`,
        );
      return undefined;
    },
  },
  {
    id: 'http-origin',
    on: 'http',
    title: 'a local server refuses a foreign Origin with 403',
    rule: {
      source: `${SPEC}#security-warning`,
      text: 'Servers MUST validate the Origin header of every request, to prevent DNS rebinding; an Origin that is present and invalid MUST get 403 Forbidden.',
    },
    hint: 'Allow only the Origins you expect (none from the web for a local server) and answer others with 403; bind local servers to 127.0.0.1.',
    async run(peer) {
      const foreign = await peer.exchange('POST', {
        headers: { ...POST_HEADERS, Origin: 'http://evil.example' },
        body: JSON.stringify(initializeMessage('origin')),
        session: false,
      });
      if (foreign.status === 403) return undefined;
      if (!peer.local) {
        return warn(
          `Origin: http://evil.example got ${shown(foreign)}: a remote server may allow any origin, but then says so deliberately`,
        );
      }
      fail(
        `a request from Origin http://evil.example was ${ok(foreign.status) ? 'answered' : `refused with HTTP ${foreign.status}`}: any web page could drive this local server; 403 is due`,
      );
    },
  },
  {
    id: 'http-host',
    on: 'http',
    title: 'a local server refuses a request whose Host names another host',
    rule: {
      source: `${SPEC}#security-warning`,
      text: 'Servers must guard against DNS rebinding: a page can rebind its own hostname to 127.0.0.1 and reach a local server as the same origin, sending no Origin on some requests but always its own name in Host. A local server answers only a Host it expects (localhost, 127.0.0.1, [::1]); the official SDKs refuse others with 403.',
    },
    hint: 'Check the Host header of every request against the names the server is reached by (localhost, 127.0.0.1, [::1] for a local one) and answer any other with 403.',
    async run(peer) {
      if (!peer.local)
        return skip('the server is not local: which Host names it answers to is its own business');
      const port = new URL(peer.target.url).port;
      const rebound = `evil.example${port ? `:${port}` : ''}`;
      const answer = await peer.exchange('POST', {
        headers: { ...POST_HEADERS, Host: rebound },
        body: JSON.stringify(initializeMessage('host')),
        session: false,
      });
      if (answer.status === 403 || answer.status === 421) return undefined;
      fail(
        `a request with Host evil.example (the server's own port) was ${ok(answer.status) ? 'answered' : `refused with HTTP ${answer.status}`}: a page that rebinds its hostname to 127.0.0.1 could drive this local server; 403 is due`,
      );
    },
  },
  {
    id: 'http-stateless-headers',
    on: 'http',
    title: 'Mcp-Method, Mcp-Name and Mcp-Param-* headers must match the body (2026-07-28)',
    rule: {
      source:
        'MCP 2026-07-28 basic/transports/streamable-http (Standard Request Headers, Custom Headers from Tool Parameters, Server Validation)',
      text: 'A stateless request carries Mcp-Method, and Mcp-Name for tools/call, prompts/get and resources/read; a tools/call carries an Mcp-Param-{name} header for each argument its tool marks with x-mcp-header. A header that is missing or does not match the body gets 400 with -32020 (HeaderMismatch); one that matches is served.',
    },
    hint: 'Compare Mcp-Method, Mcp-Name (params.name or params.uri) and each Mcp-Param-* header (the arguments its tool marks with x-mcp-header; integers compared as numbers) with the body before dispatching, and answer a missing or different one with 400 and error -32020 naming the header.',
    async run(peer) {
      if (!(await discover(peer))) return skip('the server does not speak 2026-07-28');
      const problems: string[] = [];
      const notes: string[] = [];
      const list = statelessMessage('tools/list', {});
      await expectMismatch(peer, problems, 'tools/list with an Mcp-Method that names another method', list, {
        'Mcp-Method': 'prompts/list',
      });
      await expectMismatch(peer, problems, 'tools/list with no Mcp-Method', list, {
        'Mcp-Method': undefined,
      });
      // Mcp-Name on a call of a tool that does not exist: refused before dispatch by a server that checks,
      // and nothing runs on one that does not.
      const name = 'mcpwire-doctor-no-such-tool';
      const call = statelessMessage('tools/call', { name, arguments: {} });
      await expectMismatch(peer, problems, 'tools/call with an Mcp-Name that names another tool', call, {
        'Mcp-Name': `${name}-other`,
      });
      await expectMismatch(peer, problems, 'tools/call with no Mcp-Name', call, { 'Mcp-Name': undefined });
      await expectServed(peer, problems, 'tools/call whose Mcp-Name matches', call, {});
      // Mcp-Param-*: a tool that marks a parameter, called only when it says it only reads.
      const tools = await statelessTools(peer);
      const marked = tools.flatMap((tool) => {
        const found = paramHeadersOf(tool.inputSchema);
        return 'headers' in found && found.headers.length > 0 ? [{ tool, params: found.headers }] : [];
      });
      const target = marked.find((m) => m.tool.annotations?.readOnlyHint === true);
      if (marked.length === 0)
        notes.push('no tool marks a parameter with x-mcp-header: Mcp-Param-* not exercised');
      else if (!target) {
        notes.push(
          `Mcp-Param-* not exercised: the tools that mark parameters (${marked.map((m) => m.tool.name).join(', ')}) do not say they only read (readOnlyHint), and doctor calls no tool that may change things`,
        );
      } else {
        const [param] = target.params;
        const args = sampleArguments(target.params, false);
        const message = statelessMessage('tools/call', { name: target.tool.name, arguments: args });
        const right = paramHeaders(target.params, args);
        const wrong = paramHeaders(target.params, sampleArguments(target.params, true));
        const header = `Mcp-Param-${param!.name}`;
        await expectMismatch(peer, problems, `tools/call of ${target.tool.name} with no ${header}`, message, {
          ...right,
          [header]: undefined,
        });
        await expectMismatch(
          peer,
          problems,
          `tools/call of ${target.tool.name} with an ${header} that differs from the argument`,
          message,
          { ...right, [header]: wrong[header] },
        );
        await expectServed(
          peer,
          problems,
          `tools/call of ${target.tool.name} whose ${header} matches`,
          message,
          right,
        );
      }
      ensure(problems.length === 0, problems.join('; '));
      return notes.length > 0 ? { status: 'pass', details: notes } : undefined;
    },
  },
];

function statelessMessage(method: string, params: Record<string, unknown>) {
  return {
    jsonrpc: '2.0' as const,
    id: `headers-${method}`,
    method,
    params: { ...params, _meta: STATELESS_META },
  };
}

/** POSTs a stateless request with its right metadata headers, `changes` applied (undefined removes one). */
function postStateless(
  peer: HttpPeer,
  message: { method: string; params: Record<string, unknown> },
  changes: Record<string, string | undefined>,
): Promise<HttpExchange> {
  const headers: Record<string, string> = { ...POST_HEADERS, ...requestMetadataHeaders(message) };
  for (const [name, value] of Object.entries(changes)) {
    if (value === undefined) delete headers[name];
    else headers[name] = value;
  }
  return peer.exchange('POST', { headers, body: JSON.stringify(message), session: false });
}

function errorCodeOf(answer: HttpExchange): unknown {
  return (messagesOf(answer).messages[0] as { error?: { code?: unknown } } | undefined)?.error?.code;
}

async function expectMismatch(
  peer: HttpPeer,
  problems: string[],
  what: string,
  message: { method: string; params: Record<string, unknown> },
  changes: Record<string, string | undefined>,
): Promise<void> {
  const answer = await postStateless(peer, message, changes);
  if (answer.status !== 400) {
    problems.push(`${what} got ${shown(answer)}; 400 is due`);
    return;
  }
  const code = errorCodeOf(answer);
  if (code !== ErrorCode.HeaderMismatch) {
    problems.push(`${what} got error code ${String(code)}; -32020 (header mismatch) is due`);
  }
}

/** A request whose headers are right must not be refused as a mismatch (any other answer will do). */
async function expectServed(
  peer: HttpPeer,
  problems: string[],
  what: string,
  message: { method: string; params: Record<string, unknown> },
  changes: Record<string, string | undefined>,
): Promise<void> {
  const answer = await postStateless(peer, message, changes);
  if (errorCodeOf(answer) === ErrorCode.HeaderMismatch || (answer.status === 400 && !answer.text)) {
    problems.push(`${what} was refused (${shown(answer)}), though its headers match the body`);
  }
}

interface ListedTool {
  name: string;
  inputSchema?: unknown;
  annotations?: { readOnlyHint?: boolean };
}

async function statelessTools(peer: HttpPeer): Promise<ListedTool[]> {
  const answer = await postStateless(peer, statelessMessage('tools/list', {}), {});
  const result = (messagesOf(answer).messages[0] as { result?: { tools?: unknown } } | undefined)?.result;
  return Array.isArray(result?.tools) ? (result.tools as ListedTool[]) : [];
}

/** Arguments with a value for each marked parameter (another value when `other`), nested as marked. */
function sampleArguments(params: readonly ParamHeader[], other: boolean): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const param of params) {
    let at = args;
    for (const key of param.path.slice(0, -1)) {
      at[key] ??= {};
      at = at[key] as Record<string, unknown>;
    }
    at[param.path.at(-1)!] =
      param.type === 'string'
        ? other
          ? 'doctor-other'
          : 'doctor'
        : param.type === 'integer'
          ? other
            ? 8
            : 7
          : !other;
  }
  return args;
}
