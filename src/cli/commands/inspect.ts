// `mcpwire inspect [-- COMMAND | --url URL | --config FILE]`: the servers, and their wire, in a web page
// on this machine. The page and its API are inspect's; this command starts the servers, hands the page
// the doctor (inspect and doctor are siblings that do not know each other), prints the address with its
// token and opens the browser.

import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { runChecks } from '../../doctor/runner.js';
import { isRemote } from '../../host/config.js';
import { startInspectServer } from '../../inspect/web/server.js';
import { InspectSession } from '../../inspect/web/session.js';
import { colour } from '../format.js';
import { openBrowser } from '../open-browser.js';
import { splitAtDoubleDash } from '../options.js';
import { packageVersion } from '../package-info.js';
import { openTarget, type Target } from '../target.js';
import { UsageError } from '../usage.js';
import { report } from './common.js';

export const usage = `Usage: mcpwire inspect [--port N] [--no-open] (-- COMMAND [ARGS] | --url URL | --config FILE)

Starts the servers and a web page on 127.0.0.1 to inspect them: tools with forms made from their input
schemas, resources and templates, prompts, every message on the wire both ways with its timing and the
faults mcpwire trace flags, logs, sampling and elicitation answered in dialogs, roots, the doctor's report,
and the session exported as a trace log that mcpwire replay reads.

The address printed carries a random token: every request needs it, and only this machine is served
(the Host and Origin of each request are checked). Ctrl-C ends the page and the servers.

Options:
  --port N              the page's port (default: a free one)
  --no-open             print the address only; do not open a browser
  --timeout MS          timeout of the handshake and of each request (default 60000)
  --verbose             copy the servers' stderr to ours as well

Servers:
  -- COMMAND [ARGS]     a stdio server command, e.g. -- npx mcpwire serve everything
  --url URL             a remote server (Streamable HTTP, or the older HTTP+SSE)
  --header 'N: V'       a header on every request to --url (repeatable)
  --config FILE         servers from a configuration ({"mcpServers": {...}})
  --server NAME         only this server of the configuration`;

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let values: {
    port?: string;
    'no-open'?: boolean;
    timeout?: string;
    verbose?: boolean;
    config?: string;
    server?: string;
    url?: string;
    header?: string[];
  };
  try {
    ({ values } = parseArgs({
      args: before,
      options: {
        port: { type: 'string' },
        'no-open': { type: 'boolean' },
        timeout: { type: 'string' },
        verbose: { type: 'boolean' },
        config: { type: 'string' },
        server: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire inspect --help".');
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new UsageError(`--port takes a port number (0-65535), not "${values.port}"`);
  const timeout = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeout !== undefined && !(timeout > 0))
    throw new UsageError('--timeout takes milliseconds, e.g. --timeout 30000');

  let target: Target | undefined;
  const session = new InspectSession((server) => doctor(target, server, timeout));
  const ended = new Promise<number>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const)
      process.once(signal, () => resolve(signal === 'SIGINT' ? 0 : 128 + (constants.signals[signal] ?? 15)));
  });
  try {
    target = await openTarget(
      {
        config: values.config,
        server: values.server,
        command,
        url: values.url,
        headers: values.header,
        verbose: values.verbose === true,
        timeout,
        answers: session.answers,
        wrapTransport: session.wrapTransport,
        onEvent: session.onHostEvent,
        onStderr: (server, text) => {
          session.onStderr(server, text);
          if (values.verbose) process.stderr.write(text);
        },
        watchLists: true,
      },
      packageVersion(),
    );
  } catch (error) {
    return report(error);
  }
  session.attach(target.host);
  await session.setLevel('info').catch(() => {});
  let server: Awaited<ReturnType<typeof startInspectServer>>;
  try {
    server = await startInspectServer({ session, port });
  } catch (error) {
    await target.host.shutdown();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${port} is taken; give another --port, or none`);
    throw error;
  }
  process.stdout.write(`${colour.bold('mcpwire inspect')} ${server.url}\n`);
  process.stderr.write(colour.dim('Open the address above; Ctrl-C ends the page and the servers.\n'));
  if (!values['no-open']) openBrowser(server.url);
  const code = await ended;
  session.close();
  await server.close();
  await target.host.shutdown();
  return code;
}

/** The doctor's report on one configured server, run against a fresh process or session of it. */
async function doctor(target: Target | undefined, server: string, timeoutMs?: number): Promise<unknown> {
  if (!target) throw new UsageError('the servers are still starting');
  const entry = target.host.config(server);
  const results = isRemote(entry)
    ? await runChecks({ url: entry.url, headers: entry.headers }, { timeoutMs })
    : await runChecks(
        { command: entry.command, args: entry.args, ...(entry.cwd ? { cwd: entry.cwd } : {}) },
        { timeoutMs },
      );
  return { server, results };
}
