// What the client side of HTTP says when a server cannot be used: each failure a person meets when
// pointing a client at a URL (nothing listening, no such host, a bad certificate, a 404, a server that
// wants authorization, a web page instead of an endpoint) as one sentence that names the URL and the
// cause, and a hint where there is something to do. Shared by both HTTP client transports.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { CloseReason } from '../../jsonrpc/errors.js';
import type { JsonRpcId } from '../../jsonrpc/messages.js';
import { parseBearerChallenge } from './auth/challenge.js';

const NETWORK_CAUSES: Record<string, string> = {
  ECONNREFUSED: 'connection refused (nothing is listening there)',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
};

/** A request that failed before any answer (the error's code, or the cause fetch wraps in "fetch failed"). */
export function unreachable(url: string | URL, error: unknown): CloseReason {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  let why = code ? NETWORK_CAUSES[code] : undefined;
  let hint: string | undefined;
  if (!why && code && (/CERT|SSL|TLS|SELF_SIGNED|ERR_TLS/.test(code) || code === 'EPROTO')) {
    // OpenSSL's own text ("...:SSL routines:ssl3_get_record:wrong version number:...") says it last.
    const detail = cause?.message ?? (error as Error).message ?? code;
    why = `TLS failed: ${/routines:[^:]*:([^:]+)/.exec(detail)?.[1] ?? detail.trim()}`;
    hint =
      'Check the certificate (or the scheme: http:// for a server without TLS); NODE_EXTRA_CA_CERTS adds a CA.';
  }
  why ??= cause?.message ?? (error as Error).message ?? String(error);
  const reason: CloseReason = { message: `cannot reach ${String(url)}: ${why}`, cause: error };
  if (hint) reason.hint = hint;
  else if (code === 'ECONNREFUSED') reason.hint = 'Is the server running, and on that port?';
  return reason;
}

/** An HTTP status that means this URL cannot be used as it is (4xx/5xx before any session). */
export function httpRefusal(
  url: string | URL,
  response: { status: number; headers: { get(name: string): string | null } },
  body: string,
): CloseReason {
  const status = response.status;
  if (status === 401 || status === 403) {
    const challenge = response.headers.get('www-authenticate') ?? '';
    const metadata = parseBearerChallenge(challenge)?.resource_metadata;
    const announced = metadata
      ? `; it announced its authorization through ${metadata}`
      : challenge
        ? `; it asked for: ${challenge}`
        : '';
    return {
      message: `${String(url)} needs authorization (HTTP ${status})${announced}`,
      httpStatus: status,
      hint: 'Pass a token with --header \'Authorization: Bearer TOKEN\' (or "headers" in the configuration).',
    };
  }
  if (status === 404) {
    return {
      message: `${String(url)} answered HTTP 404: there is no MCP endpoint at that path`,
      httpStatus: status,
      hint: 'Check the path: servers usually serve MCP at /mcp (or /sse for the older HTTP+SSE transport).',
    };
  }
  return {
    message: `${String(url)} answered HTTP ${status}${body.trim() ? `: ${excerpt(body)}` : ''}`,
    httpStatus: status,
  };
}

/** A 2xx answer that is neither JSON nor an event stream: a web page, a proxy's login form. */
export function notMcp(url: string | URL, type: string, body: string): CloseReason {
  return {
    message: `${String(url)} answered ${type || 'with no content type'}, not MCP: ${excerpt(body)}`,
    hint: 'Is this the MCP endpoint and not a web page (or a proxy asking to log in)?',
  };
}

/** The error response a request gets when its POST was refused. */
export function failedRequest(id: JsonRpcId, status: number, body: string): unknown {
  let parsed: { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const error = parsed?.error;
  return {
    jsonrpc: '2.0',
    id,
    error: {
      code: typeof error?.code === 'number' ? error.code : ErrorCode.InternalError,
      message: status
        ? `HTTP ${status}: ${typeof error?.message === 'string' ? error.message : excerpt(body)}`
        : `request failed: ${body}`,
      ...(error?.data === undefined ? {} : { data: error.data }),
    },
  };
}

/** The first bytes of a body, on one line and quoted. */
export function excerpt(body: string, max = 120): string {
  const flat = body.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}

/** The authorization flow failed (a login is needed, a metadata or token problem): one sentence and a fix. */
export function authorizationFailure(url: string | URL, error: unknown): CloseReason {
  const code = (error as { code?: string }).code;
  const reason: CloseReason = { message: (error as Error).message ?? String(error), cause: error };
  if (code === 'LOGIN_REQUIRED') reason.hint = `Log in first: mcpwire login ${String(url)}`;
  else
    reason.hint = "Check the server's authorization settings, or log in again: mcpwire login " + String(url);
  return reason;
}
