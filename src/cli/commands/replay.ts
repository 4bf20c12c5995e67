// `mcpwire replay LOG -- COMMAND | --url URL`: a regression test for any server, from one recorded
// session. It re-sends the client's side of a trace log (mcpwire trace --format jsonl, stdio or --http)
// to a server, in the recorded order, waits where the recording had the server answer, and shows where the
// answers now differ. It speaks JSON-RPC at the level of the transport, not through a client: what goes
// out is what the recorded client sent, byte for byte but the ids of answers to the server's own requests.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { HttpHeaderMirror } from '../../client/eras/http-headers.js';
import {
  compareAnswers,
  type Difference,
  type ReplayConversation,
  ReplayLogError,
  readReplayScript,
} from '../../inspect/replay-script.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { CloseReason } from '../../jsonrpc/errors.js';
import { classify, type JsonRpcId } from '../../jsonrpc/messages.js';
import type { Transport } from '../../jsonrpc/transport.js';
import { ChildProcessTransport } from '../../transport/child-process.js';
import { FallbackHttpTransport } from '../../transport/http/fallback-transport.js';
import { colour, printJson } from '../format.js';
import { splitAtDoubleDash } from '../options.js';
import { StrayOutput } from '../stray-output.js';
import { parseRemote } from '../target.js';
import { UsageError } from '../usage.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const STATELESS_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

export const usage = `Usage: mcpwire replay LOG [options] -- COMMAND [ARGS]
       mcpwire replay LOG [options] --url URL [--header 'Name: value']...

Re-sends the client's side of a recorded trace (mcpwire trace --format jsonl --log LOG, over stdio or
--http) to a server, in the recorded order, and compares each answer with the recorded one: a regression
test for any server from one recorded session. Over HTTP each recorded session is replayed in a session of
its own. The ids of the answers, timestamps in strings and the values of timing fields (timestamp, time,
date, elapsed, duration, latency, uptime, and names ending in At, Ms, Time, Timestamp) are not compared;
server notifications are not compared.

Options:
  --ignore KEY       do not compare the values of KEY, wherever it is (repeatable), e.g. --ignore version
  --timeout MS       how long to wait for each answer (default ${DEFAULT_TIMEOUT_MS})
  --json             the comparison as one JSON object
  --verbose          show the server's stderr, and every answer that is the same too

Exit codes: 0 every answer the same, 1 some answer differs, 2 usage error, 3 the server failed.`;

interface Outcome {
  method: string;
  id: JsonRpcId;
  session?: string;
  /** Empty when the answer is the same. */
  differences: Difference[];
  /** Set when there is no answer to compare (none came, or the server never asked). */
  missing?: string;
}

export async function run(argv: string[]): Promise<number> {
  const { before, command } = splitAtDoubleDash(argv);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: before,
      options: {
        url: { type: 'string' },
        header: { type: 'string', multiple: true },
        ignore: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        verbose: { type: 'boolean' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire replay --help".');
  }
  const values = parsed.values as {
    url?: string;
    header?: string[];
    ignore?: string[];
    timeout?: string;
    json?: boolean;
    verbose?: boolean;
  };
  const [logFile, ...extra] = parsed.positionals;
  if (!logFile) throw new UsageError('which log? e.g. mcpwire replay session.jsonl -- npx mcpwire serve fs');
  if (extra.length > 0)
    throw new UsageError(`unexpected ${JSON.stringify(extra[0])}: one LOG, then -- COMMAND or --url URL`);
  if ((values.url === undefined) === (command.length === 0)) {
    throw new UsageError('replay to which server? give -- COMMAND or --url URL (one of them)');
  }
  const timeout = values.timeout === undefined ? DEFAULT_TIMEOUT_MS : Number(values.timeout);
  if (!(timeout > 0)) throw new UsageError('--timeout takes milliseconds, e.g. --timeout 30000');
  const remote = values.url === undefined ? undefined : parseRemote(values.url, values.header ?? []);

  let text: string;
  try {
    text = readFileSync(logFile, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read ${logFile}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let conversations: ReplayConversation[];
  try {
    conversations = readReplayScript(text);
  } catch (error) {
    if (error instanceof ReplayLogError) throw new UsageError(`${logFile}: ${error.message}`);
    throw error;
  }

  const ignore = new Set(values.ignore ?? []);
  const outcomes: Outcome[] = [];
  const stray = new StrayOutput();
  for (const conversation of conversations) {
    const transport: Transport = remote
      ? new FallbackHttpTransport(remote.url, { headers: remote.headers })
      : new ChildProcessTransport({
          command: command[0]!,
          args: command.slice(1),
          stderr: values.verbose ? 'inherit' : 'pipe',
        });
    const failure = await replayConversation(
      conversation,
      transport,
      { timeout, ignore, http: remote !== undefined, stray: remote ? undefined : stray },
      outcomes,
    );
    if (failure) {
      process.stderr.write(`mcpwire: ${failure.message}\n`);
      if (failure.stderrTail) process.stderr.write(`${failure.stderrTail.replace(/\n?$/, '\n')}`);
      return 3;
    }
  }

  const different = outcomes.filter((o) => o.missing !== undefined || o.differences.length > 0);
  if (values.json) {
    printJson({ compared: outcomes.length, same: outcomes.length - different.length, different });
  } else {
    for (const outcome of outcomes) {
      const where = `${outcome.method} (id ${JSON.stringify(outcome.id)}${outcome.session ? `, session ${outcome.session.slice(0, 8)}` : ''})`;
      if (outcome.missing !== undefined) {
        process.stdout.write(`${colour.red('✗')} ${where}: ${outcome.missing}\n`);
      } else if (outcome.differences.length > 0) {
        process.stdout.write(`${colour.red('✗')} ${where}: the answer differs\n`);
        for (const d of outcome.differences) {
          process.stdout.write(`    ${d.path}: ${shown(d.recorded)} → ${shown(d.now)}\n`);
        }
      } else if (values.verbose) process.stdout.write(`${colour.green('✓')} ${where}\n`);
    }
    process.stdout.write(
      `${outcomes.length} ${outcomes.length === 1 ? 'answer' : 'answers'} compared: ${outcomes.length - different.length} the same, ${different.length} different\n`,
    );
  }
  return different.length > 0 ? 1 : 0;
}

function shown(value: unknown): string {
  if (value === undefined) return '(nothing)';
  const text = JSON.stringify(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/**
 * Replays one conversation on a fresh transport, adding what it compared to `outcomes`. Resolves with the
 * reason when the server could not be reached or went away before the replay was done.
 */
async function replayConversation(
  conversation: ReplayConversation,
  transport: Transport,
  options: { timeout: number; ignore: ReadonlySet<string>; http: boolean; stray?: StrayOutput },
  outcomes: Outcome[],
): Promise<CloseReason | undefined> {
  const answers = new Map<JsonRpcId, Record<string, unknown>>();
  /** The server's requests not yet matched with a recorded one, in order of arrival. */
  const asked: { id: JsonRpcId; method: string }[] = [];
  const mapped = new Map<JsonRpcId, JsonRpcId>();
  // An object, so that what the transport's callbacks set is seen after an await.
  const state: { closed?: CloseReason; closing?: boolean } = {};
  let wake: (() => void) | undefined;
  const changed = () => {
    const waiting = wake;
    wake = undefined;
    waiting?.();
  };
  transport.start({
    message(payload) {
      for (const item of Array.isArray(payload) ? payload : [payload]) {
        const c = classify(item);
        if (c.kind === 'response' && c.message.id !== null)
          answers.set(c.message.id, item as Record<string, unknown>);
        else if (c.kind === 'request') asked.push({ id: c.message.id, method: c.message.method });
      }
      changed();
    },
    frameError(error) {
      // Said at once: the answer the line should have been is otherwise only missed at the timeout.
      if (error.kind !== 'oversize') options.stray?.report('the server', error.excerpt);
    },
    closed(reason) {
      // Our own close at the end is no failure of the server.
      if (!state.closing) state.closed = reason;
      changed();
    },
  });
  /** Waits until `ready` gives something, the transport closes, or the timeout passes. */
  const until = async <T>(ready: () => T | undefined): Promise<T | undefined> => {
    const deadline = Date.now() + options.timeout;
    for (;;) {
      const value = ready();
      if (value !== undefined || state.closed) return value;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  };
  const mirror = new HttpHeaderMirror(undefined);
  const session = conversation.session;
  let answered = 0;
  try {
    for (const step of conversation.steps) {
      if (state.closed) break;
      switch (step.kind) {
        case 'send': {
          const meta = (step.message.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
          if (options.http && meta?.[STATELESS_VERSION_KEY] !== undefined && step.method !== undefined) {
            // A 2026-07-28 request stands alone, with the headers that mirror its body.
            const params = (step.message.params ?? {}) as Record<string, unknown>;
            const { transport: alone } = mirror.requestOptions(step.method, params, {});
            transport.send(step.message as never, {
              standalone: 'id' in step.message,
              headers: alone?.headers,
            });
          } else transport.send(step.message as never);
          break;
        }
        case 'expect-response': {
          const answer = await until(() => answers.get(step.id));
          if (answer) answered++;
          const outcome: Outcome = { method: step.method, id: step.id, differences: [] };
          if (session) outcome.session = session;
          if (!answer) {
            const reason = closedBy(state);
            outcome.missing = reason
              ? `no answer: ${reason.message}`
              : `no answer within ${options.timeout} ms (the recording had one)`;
          } else {
            answers.delete(step.id);
            outcome.differences = compareAnswers(step.recorded, answer, options.ignore);
            const result = answer.result as { protocolVersion?: unknown } | undefined;
            if (step.method === 'initialize' && typeof result?.protocolVersion === 'string') {
              transport.setProtocolVersion?.(result.protocolVersion);
            }
            if (step.method === 'tools/list') mirror.readTools(structuredClone(answer.result));
          }
          outcomes.push(outcome);
          break;
        }
        case 'expect-request': {
          const index = await until(() => {
            const i = asked.findIndex((a) => a.method === step.method);
            return i === -1 ? undefined : i;
          });
          if (index === undefined) {
            const outcome: Outcome = {
              method: step.method,
              id: step.recordedId,
              differences: [],
              missing: `the server did not send ${step.method} this time (the recording has it)`,
            };
            if (session) outcome.session = session;
            outcomes.push(outcome);
          } else {
            mapped.set(step.recordedId, asked[index]!.id);
            asked.splice(index, 1);
          }
          break;
        }
        case 'answer': {
          const id = mapped.get(step.recordedId);
          if (id !== undefined) transport.send({ ...step.message, id } as never);
          break;
        }
      }
    }
    // A request the server sent that the recording does not have gets an error, not silence.
    for (const extra of asked) {
      transport.send({
        jsonrpc: '2.0',
        id: extra.id,
        error: { code: ErrorCode.MethodNotFound, message: `${extra.method} is not in the recording` },
      } as never);
    }
  } finally {
    state.closing = true;
    await transport.close();
  }
  // A server that could not even be reached is a failure of the run, not a difference in its answers.
  if (state.closed && answered === 0) return state.closed;
  return undefined;
}

/** Read through a call: TypeScript would otherwise keep what it narrowed before an await. */
function closedBy(state: { closed?: CloseReason }): CloseReason | undefined {
  return state.closed;
}
