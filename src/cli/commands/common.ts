// What the client commands share: the target options, starting the servers, exit codes, and turning
// failures into one sentence and a hint.

import { constants } from 'node:os';
import { parseArgs } from 'node:util';
import { type McpHost, RoutingError } from '../../host/host.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { ConnectionClosedError, JsonRpcError, RequestTimeoutError } from '../../jsonrpc/errors.js';
import { isLoggingLevel, LOGGING_LEVELS } from '../../protocol/logging.js';
import type { LoggingLevel } from '../../protocol/types.js';
import { colour } from '../format.js';
import { splitAtDoubleDash } from '../options.js';
import { packageVersion } from '../package-info.js';
import {
  openTarget,
  readyClients,
  ServerFailure,
  type Target,
  type TargetOptions,
  withoutLibraryAdvice,
} from '../target.js';
import { UsageError } from '../usage.js';

/** The signals that end a command (SIGINT from Ctrl-C, SIGTERM from a supervisor, SIGHUP from a closed terminal). */
const ENDING_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export const ExitCode = { Ok: 0, ToolError: 1, Usage: 2, ServerFailed: 3 } as const;

export const TARGET_USAGE = `Servers:
  -- COMMAND [ARGS]     a stdio server command, e.g. -- npx mcpwire serve fs --root .
  --url URL             a remote server (Streamable HTTP, or the older HTTP+SSE), e.g.
                        --url http://127.0.0.1:3000/mcp
  --header 'N: V'       a header on every request to --url (repeatable)
  --config FILE         servers from a configuration ({"mcpServers": {...}})
  --server NAME         only this server of the configuration

Common options:
  --json                machine-readable output
  --timeout MS          timeout of each request, and of the handshake unless
                        --handshake-timeout says otherwise (default 60000)
  --handshake-timeout MS
                        timeout of starting a server: the handshake and the lists
                        the command needs (default --timeout, or 30000 without it)
  --log-level LEVEL     the servers' log messages shown on stderr, from LEVEL up (default info)
  --quiet               show no log messages
  --verbose             show the servers' stderr

Exit codes: 0 ok, 1 the tool reported an error, 2 usage error, 3 the server failed.`;

type OptionSpec = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

export interface ParsedCommand {
  positionals: string[];
  values: Record<string, string | boolean | string[] | undefined>;
  json: boolean;
}

/** Parses options, starts the servers, runs `body`, and always shuts the servers down. */
export async function runClientCommand(
  argv: string[],
  options: OptionSpec,
  body: (target: Target, parsed: ParsedCommand) => Promise<number>,
  extra: Pick<TargetOptions, 'onLog' | 'onEvent' | 'lists' | 'watchLists' | 'answers'> & {
    /** Checks the positionals before any server starts: "which tool?" comes before "which server?". */
    check?: (positionals: string[]) => void;
    /**
     * Runs first when a signal ends the command, while the servers are still there; the shutdown waits for
     * its promise (call --task cancels its task). A second signal still exits at once.
     */
    onSignal?: (signal: NodeJS.Signals) => Promise<unknown> | undefined;
  } = {},
): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: before,
      options: {
        ...options,
        config: { type: 'string' },
        server: { type: 'string' },
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
        timeout: { type: 'string' },
        'handshake-timeout': { type: 'string' },
        'log-level': { type: 'string' },
        quiet: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const values = parsed.values as ParsedCommand['values'];
  extra.check?.(parsed.positionals);
  const timeout = milliseconds(values.timeout, '--timeout');
  const handshakeTimeout = milliseconds(values['handshake-timeout'], '--handshake-timeout');
  const logLevel = (values['log-level'] as string | undefined) ?? 'info';
  if (!isLoggingLevel(logLevel)) {
    throw new UsageError(
      `--log-level is one of ${LOGGING_LEVELS.join(', ')}, not "${logLevel}"`,
      'e.g. --log-level debug, or --quiet for none',
    );
  }
  const level: LoggingLevel = logLevel;
  const quiet = values.quiet === true;
  // A signal ends the command, and with it every server it started and everything those started: what
  // is in flight is cancelled first, then each server gets the shutdown of a host (stdin closed, SIGTERM
  // to its tree, SIGKILL). Without this, a server that ignored SIGTERM and the end of stdin survived,
  // reparented. A second signal exits at once.
  let started: McpHost | undefined;
  let ending = false;
  const onSignal = (signal: NodeJS.Signals) => {
    const code = 128 + (constants.signals[signal] ?? 15);
    if (ending) process.exit(code);
    ending = true;
    void Promise.resolve(extra.onSignal?.(signal))
      .catch(() => undefined)
      .then(() => {
        started?.cancelAll(`the command line got ${signal}`);
        return started?.shutdown();
      })
      .finally(() => process.exit(code));
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  try {
    return await runTarget();
  } finally {
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  }

  async function runTarget(): Promise<number> {
    let target: Target;
    try {
      target = await openTarget(
        {
          config: values.config as string | undefined,
          server: values.server as string | undefined,
          command,
          url: values.url as string | undefined,
          headers: values.header as string[] | undefined,
          verbose: values.verbose === true,
          timeout,
          handshakeTimeout,
          // Each command shows the servers' log messages on stderr unless told to be quiet (they were never
          // shown, and mcpwire's own servers were never even asked for them).
          onLog: quiet ? undefined : (extra.onLog ?? printLog),
          lists: extra.lists,
          onEvent: extra.onEvent,
          answers: extra.answers,
          onHost: (host) => {
            started = host;
          },
          // A command runs once: list changes while it runs are no use to it.
          watchLists: extra.watchLists ?? false,
        },
        packageVersion(),
      );
    } catch (error) {
      return report(error);
    }
    if (!quiet) await askForLogs(target, level);
    try {
      return await body(target, { positionals: parsed.positionals, values, json: values.json === true });
    } catch (error) {
      return report(error);
    } finally {
      await target.host.shutdown();
    }
  }
}

/** A timeout option in milliseconds, or undefined when not given. */
function milliseconds(value: string | boolean | string[] | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = Number(value);
  if (!(ms > 0) || !Number.isFinite(ms))
    throw new UsageError(`${option} takes milliseconds, e.g. ${option} 30000; got "${value}"`);
  return ms;
}

/** One sentence and a hint on stderr; the exit code that fits. */
export function report(error: unknown): number {
  const write = (message: string, hint?: string) =>
    process.stderr.write(`mcpwire: ${message}\n${hint ? `hint: ${hint}\n` : ''}`);
  if (error instanceof UsageError) {
    write(error.message, error.hint);
    return ExitCode.Usage;
  }
  if (error instanceof RoutingError) {
    write(error.message);
    return ExitCode.Usage;
  }
  if (error instanceof ServerFailure) {
    write(error.message, error.hint);
    return ExitCode.ServerFailed;
  }
  if (error instanceof ConnectionClosedError) {
    write(
      error.message,
      'The server stopped while the request was running; run with --verbose to see its stderr.',
    );
    return ExitCode.ServerFailed;
  }
  if (error instanceof RequestTimeoutError) {
    write(
      withoutLibraryAdvice(error.message),
      error.kind === 'idle'
        ? `Raise --timeout (in ms; it was ${error.timeoutMs}) if the server needs longer.`
        : undefined,
    );
    return ExitCode.ServerFailed;
  }
  if (error instanceof JsonRpcError) {
    write(
      `the server answered with error ${error.code}: ${error.message}`,
      error.data === undefined ? undefined : `data: ${JSON.stringify(error.data)}`,
    );
    return error.code === ErrorCode.InvalidParams ||
      error.code === ErrorCode.MethodNotFound ||
      error.code === ErrorCode.ResourceNotFound
      ? ExitCode.Usage
      : ExitCode.ServerFailed;
  }
  write(error instanceof Error ? error.message : String(error));
  return ExitCode.ServerFailed;
}

function printLog(server: string, level: string, data: unknown): void {
  process.stderr.write(
    colour.dim(`[${server} ${level}] ${typeof data === 'string' ? data : JSON.stringify(data)}\n`),
  );
}

/** Asks every started server for its log messages from `level` up (a server without logging is skipped). */
async function askForLogs(target: Target, level: LoggingLevel): Promise<void> {
  await Promise.all(
    readyClients(target).map(async ({ client }) => {
      // The stateless era takes the level with each request; a handshake-era server needs the capability.
      if (client.era === 'handshake' && !client.serverCapabilities?.logging) return;
      await client.setLoggingLevel(level).catch(() => {});
    }),
  );
}
