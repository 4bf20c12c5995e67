// `mcpwire proxy`: any server on any transport. `--http PORT -- COMMAND` puts a stdio server on Streamable
// HTTP; `--url URL` puts a remote server on stdio. The composition is src/gateway's; this file parses the
// options, wires the pieces and prints where it listens (on stderr: stdout may be the protocol channel).

import { parseArgs } from 'node:util';
import { type ProxyOptions, proxyHttp, proxyStdio } from '../../gateway/proxy.js';
import type { ConnectionProblem } from '../../jsonrpc/connection.js';
import { ChildProcessTransport } from '../../transport/child-process.js';
import { OAuthClient } from '../../transport/http/auth/oauth-client.js';
import { FallbackHttpTransport } from '../../transport/http/fallback-transport.js';
import { parseSize, splitAtDoubleDash } from '../options.js';
import { packageVersion } from '../package-info.js';
import { StrayOutput } from '../stray-output.js';
import { parseRemote, tokenStore } from '../target.js';
import { UsageError } from '../usage.js';
import { parsePort } from './trace-http.js';

export const usage = `Usage: mcpwire proxy --http PORT [--host ADDR] [options] -- COMMAND [ARGS]
       mcpwire proxy --url URL [--header 'Name: value']...

With --http, runs the stdio server COMMAND behind a Streamable HTTP endpoint on 127.0.0.1:PORT (0 picks
a free port; the URL is printed on stderr). Each session of the handshake era (initialize) gets a server
process of its own, started with the client's protocol revision and capabilities and ended with the
session; 2026-07-28 requests, which carry no session, go to a small pool of shared processes (an idle
one, or a new one up to --pool, so that what a server asks is known to be for the one call it runs),
each ended after --idle-timeout without use and started again when needed. The endpoint has the same Origin/Host checks, size and
session limits as "mcpwire serve --http".

With --url, is a stdio server in front of the remote server at URL, for hosts that only start commands.

Either way, everything goes through, in whichever era each side speaks: requests and notifications both
ways, progress, cancellation, logging, list changes and resource updates, sampling, elicitation and roots
(requests to a handshake client, input_required rounds for a 2026-07-28 client), cursors and _meta.

Options:
  --http PORT               serve Streamable HTTP on PORT
  --host ADDR               the address to bind (default 127.0.0.1, which answers only localhost)
  --idle-timeout MS         end a shared 2026-07-28 server process after MS unused (default 300000)
  --pool N                  shared 2026-07-28 server processes at most (default 4)
  --session-timeout MS      end a session (and its process) idle for MS (default 1800000)
  --max-sessions N          sessions (and processes) at once (default 100)
  --max-message-size SIZE   largest request body (default 4MiB)
  --url URL                 the remote server (stdio front)
  --header 'Name: value'    a header for every request to the remote server (repeatable)
  --verbose                 say on stderr when a server process starts and ends

In a host configuration:
  {"mcpServers": {"remote": {"command": "npx", "args": ["mcpwire", "proxy", "--url", "https://example.com/mcp"]}}}`;

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: {
    http?: string;
    host?: string;
    url?: string;
    header?: string[];
    'idle-timeout'?: string;
    pool?: string;
    'session-timeout'?: string;
    'max-sessions'?: string;
    'max-message-size'?: string;
    verbose?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: before,
      options: {
        http: { type: 'string' },
        host: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        'idle-timeout': { type: 'string' },
        pool: { type: 'string' },
        'session-timeout': { type: 'string' },
        'max-sessions': { type: 'string' },
        'max-message-size': { type: 'string' },
        verbose: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire proxy --help".');
  }
  const say = (text: string) => process.stderr.write(`mcpwire proxy: ${text}\n`);
  const stray = new StrayOutput();
  const common = {
    // Said at once, as every command does: a client of the proxy would see only a request that hangs.
    onProblem: (problem: ConnectionProblem) => {
      if (problem.kind === 'parse-error' || problem.kind === 'framing')
        stray.report('the server', String(problem.detail ?? ''));
    },
    clientInfo: { name: 'mcpwire-proxy', version: packageVersion() },
    idleTimeout: whole(values['idle-timeout'], '--idle-timeout'),
    poolSize: whole(values.pool, '--pool'),
    onEvent: values.verbose
      ? (event: { type: string; shared: boolean; detail: string }) =>
          say(`${event.shared ? 'shared' : 'session'} server ${event.type}: ${event.detail}`)
      : undefined,
  };
  if (values.url !== undefined) {
    if (values.http !== undefined || command.length > 0) {
      throw new UsageError(
        'give either --url URL (a remote server on stdio) or --http PORT -- COMMAND (a stdio server on HTTP)',
      );
    }
    const { url, headers } = parseRemote(values.url, values.header ?? []);
    const configured = Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');
    const options: ProxyOptions = {
      ...common,
      open: () =>
        new FallbackHttpTransport(url, {
          headers,
          authorization: configured ? undefined : new OAuthClient({ server: url, store: tokenStore() }),
        }),
    };
    await proxyStdio(options);
    return 0;
  }
  if (values.header) throw new UsageError('--header goes with --url');
  if (values.http === undefined) {
    throw new UsageError(
      'where to? give --http PORT -- COMMAND or --url URL',
      'e.g. mcpwire proxy --http 8080 -- npx -y @modelcontextprotocol/server-everything',
    );
  }
  if (command.length === 0) {
    throw new UsageError('which server? e.g. mcpwire proxy --http 8080 -- npx mcpwire serve fs');
  }
  const port = parsePort(values.http);
  const [program, ...args] = command;
  const options: ProxyOptions = {
    ...common,
    open: () => new ChildProcessTransport({ command: program!, args, inheritEnv: true, stderr: 'inherit' }),
  };
  let proxy: Awaited<ReturnType<typeof proxyHttp>>;
  try {
    proxy = await proxyHttp(options, {
      port,
      host: values.host,
      maxSessions: whole(values['max-sessions'], '--max-sessions') ?? 100,
      sessionIdleTimeout: whole(values['session-timeout'], '--session-timeout'),
      maxBodySize: values['max-message-size']
        ? parseSize(values['max-message-size'], '--max-message-size')
        : undefined,
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new UsageError(`cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${code}`);
    }
    process.stderr.write(`mcpwire proxy: the server could not start: ${(error as Error).message}\n`);
    return 3;
  }
  say(`listening on ${proxy.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    process.once('SIGHUP', stop);
  });
  await proxy.close();
  return 0;
}

function whole(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new UsageError(`${option} takes a whole number of at least 0; got "${text}"`);
  }
  return value;
}
