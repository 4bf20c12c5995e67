// `mcpwire shell`: an interactive shell over every configured server, with history, tab completion of
// commands, tools and argument names, progress bars, and log messages as they arrive.

import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { ConnectionClosedError, JsonRpcError } from '../../jsonrpc/errors.js';
import { parseToolArguments } from '../arguments.js';
import { colour, formatContent, formatResourceContents, printJson, summarizeArguments } from '../format.js';
import { complete } from '../shell/completion.js';
import { type Asker, answerElicitation, answerSampling } from '../shell/forms.js';
import { ProgressLine } from '../shell/progress.js';
import { tokenize } from '../shell/tokenize.js';
import { display, qualify, type Target } from '../target.js';
import { UsageError } from '../usage.js';
import { ExitCode, report, runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire shell (--config FILE | -- COMMAND [ARGS])

An interactive shell over one or more servers. Type "help" inside it. Tab completes commands, tools,
prompts, resource URIs and argument names; history is kept in ~/.mcpwire_history. Ctrl-C cancels the
running call or clears the line; Ctrl-D or "exit" quits.

With --json (or "json on" inside), every command prints one JSON document on stdout, and nothing else
goes there. Fed from a pipe rather than a terminal, the shell prints no prompt and exits with the code of
the first command that failed (1 a tool reported an error, 2 usage, 3 a server failed), 0 if none did.

${TARGET_USAGE}`;

const HELP = `Commands:
  tools                      list tools
  call TOOL [key=value ...]  call a tool (or: call TOOL {"json": "args"})
  resources                  list resources
  read URI                   read a resource
  prompts                    list prompts
  get PROMPT [key=value ...] get a prompt
  servers                    the servers and their state
  restart [SERVER]           start a server again (after it crashed, say)
  json on|off                every command prints JSON (--json starts with it on)
  help, exit (or Ctrl-D)

Ctrl-C cancels the call that is running, or clears the line being typed.`;

const HISTORY_FILE = path.join(homedir(), '.mcpwire_history');

/** The person at the keyboard, once the shell runs: what the server's questions are put to. */
let person: Asker | undefined;

/** A server's question before the shell is ready has nobody to answer it. */
function nobody(): never {
  throw new UsageError('the shell is not ready to answer the server yet');
}

/** Redraws the prompt and the half-typed line after something was printed over them (set by the shell). */
let redraw: (() => void) | undefined;

/** Prints a line above the prompt: the line being typed is cleared first and drawn again after. */
function above(text: string): void {
  process.stderr.write(`\r\u001b[2K${text}\n`);
  redraw?.();
}

export function run(argv: string[]): Promise<number> {
  return runClientCommand(argv, {}, (target, { json }) => shell(target, json), {
    // The shell lives on: it follows the servers' lists as they change.
    watchLists: true,
    // Log messages arrive while a call runs, or while a line is typed: print them on their own line.
    onLog: (server, level, data) =>
      above(
        `${colour.yellow(`[${server} ${level}]`)} ${typeof data === 'string' ? data : JSON.stringify(data)}`,
      ),
    // A client with a person at the keyboard: it declares sampling and elicitation (form and URL), and
    // puts each request to the person.
    answers: {
      onElicitation: (params) => answerElicitation(params, person ?? nobody()),
      elicitationUrl: true,
      onSampling: (params) => answerSampling(params, person ?? nobody()),
    },
    onEvent: (event) => {
      if (event.type === 'crashed') {
        above(
          `${colour.red(`server "${event.server}" crashed: ${event.reason}`)}\nType "restart ${event.server}" to start it again.`,
        );
      }
    },
  });
}

async function shell(target: Target, startInJson: boolean): Promise<number> {
  const host = target.host;
  const name = (qualified: string, original: string) => display(target, qualified, original);
  const progress = new ProgressLine(process.stderr);
  let json = startInJson;
  /** The call running now, which Ctrl-C cancels. */
  let running: AbortController | undefined;
  /** The exit code of the first command that failed: a shell fed from a pipe exits with it, as a script would. */
  let failed: number = ExitCode.Ok;
  const interactive = process.stdin.isTTY === true;
  let history: string[] = [];
  try {
    history = readFileSync(HISTORY_FILE, 'utf8').split('\n').filter(Boolean).reverse().slice(0, 500);
  } catch {
    // No history yet.
  }
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: interactive,
    history,
    historySize: 500,
    completer: (line: string) => complete(line, host, name),
    // From a pipe there is nobody to prompt: the output is only what the commands print.
    prompt: interactive ? colour.cyan('mcp> ') : '',
  });
  const print = (text: string) => {
    progress.clear();
    process.stdout.write(`${text}\n`);
  };
  /** What is said to the person rather than a command's output: on stderr while stdout carries JSON. */
  const say = (text: string) => {
    if (!json) return print(text);
    progress.clear();
    process.stderr.write(`${text}\n`);
  };
  const servers = host.status().filter((s) => s.state === 'ready');
  say(
    `${colour.bold('mcpwire shell')}: ${servers.map((s) => `${s.name} (${plural(s.tools, 'tool')})`).join(', ')}. Type "help"; Tab completes.`,
  );

  const handle = async (line: string): Promise<boolean> => {
    const words = tokenize(line.trim());
    const [command, ...rest] = words;
    if (!command) return true;
    try {
      appendFileSync(HISTORY_FILE, `${line}\n`);
    } catch {
      // History is a convenience.
    }
    switch (command) {
      case 'exit':
      case 'quit':
        return false;
      case 'help':
        say(HELP);
        return true;
      case 'json':
        json = rest[0] !== 'off';
        say(`json ${json ? 'on' : 'off'}`);
        return true;
      case 'servers':
        if (json) {
          printJson(host.status());
          return true;
        }
        for (const s of host.status()) {
          print(
            `${colour.bold(s.name)}  ${s.state === 'ready' ? colour.green(s.state) : colour.red(s.state)}  ${s.tools} tools${s.error ? `  ${colour.dim(s.error)}` : ''}`,
          );
        }
        return true;
      case 'tools':
        if (json) {
          printJson(
            host.tools().map(({ server: _s, originalName, ...tool }) => ({
              ...tool,
              name: name(tool.name, originalName),
            })),
          );
          return true;
        }
        for (const tool of host.tools()) {
          print(
            `${colour.bold(name(tool.name, tool.originalName))}(${summarizeArguments(tool.inputSchema)})  ${colour.dim(tool.description ?? '')}`,
          );
        }
        return true;
      case 'prompts':
        if (json) {
          printJson(
            host.prompts().map(({ server: _s, originalName, ...prompt }) => ({
              ...prompt,
              name: name(prompt.name, originalName),
            })),
          );
          return true;
        }
        for (const prompt of host.prompts()) {
          print(
            `${colour.bold(name(prompt.name, prompt.originalName))}  ${colour.dim(prompt.description ?? '')}`,
          );
        }
        return true;
      case 'resources':
        if (json) printJson({ resources: host.resources() });
        else for (const r of host.resources()) print(`${r.uri}  ${colour.dim(r.name)}`);
        return true;
      case 'read': {
        if (!rest[0]) throw new UsageError('read URI');
        const result = await host.readResource(rest[0], target.single);
        if (json) printJson(result);
        else for (const c of result.contents) print(formatResourceContents(c));
        return true;
      }
      case 'call': {
        const [toolName, ...pairs] = rest;
        if (!toolName) throw new UsageError('call TOOL [key=value ...]');
        const qualified = qualify(target, toolName);
        const tool = host.tools().find((t) => t.name === qualified);
        if (!tool) throw new UsageError(`there is no tool "${toolName}"`, 'Type "tools" to list them.');
        // `call TOOL {"json": "args"}`: the JSON is taken from the line as typed, since splitting it into
        // words would strip its quotes.
        const jsonArgs = /^\s*call\s+\S+\s+(\{[\s\S]*)$/.exec(line)?.[1];
        if (jsonArgs !== undefined) checkJsonArguments(jsonArgs, toolName);
        const args = parseToolArguments({ ...tool, name: toolName }, jsonArgs, jsonArgs ? [] : pairs);
        running = new AbortController();
        let result: Awaited<ReturnType<typeof host.callTool>>;
        try {
          result = await host.callTool(qualified, args, {
            onProgress: (p) => progress.update(p),
            signal: running.signal,
          });
        } catch (error) {
          if (running.signal.aborted) {
            progress.clear();
            say(colour.yellow('(cancelled)'));
            return true;
          }
          const crashed = host.status().find((s) => s.name === tool.server)?.state !== 'ready';
          if (error instanceof ConnectionClosedError && crashed) {
            // The crash notice above said why, with the server's stderr; saying it again with a hint to
            // run with --verbose would only repeat it.
            progress.clear();
            say(colour.red('(the call ended: its server crashed)'));
            failed ||= ExitCode.ServerFailed;
            return true;
          }
          if (error instanceof JsonRpcError && error.code === ErrorCode.UserRejected) {
            // The person declined what the server asked for, and the call could not go on without it.
            progress.clear();
            say(colour.yellow('(declined: the call ended without an answer)'));
            return true;
          }
          throw error;
        } finally {
          running = undefined;
        }
        progress.clear();
        if (json) printJson(result);
        else for (const block of result.content ?? []) print(formatContent(block));
        if (result.isError) {
          say(colour.red('(the tool reported an error)'));
          failed ||= ExitCode.ToolError;
        }
        return true;
      }
      case 'get': {
        const [promptName, ...pairs] = rest;
        if (!promptName) throw new UsageError('get PROMPT [key=value ...]');
        const args = Object.fromEntries(
          pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]),
        );
        const result = await host.getPrompt(qualify(target, promptName), args);
        if (json) printJson(result);
        else
          for (const m of result.messages) print(`${colour.bold(`${m.role}:`)} ${formatContent(m.content)}`);
        return true;
      }
      case 'restart': {
        const server = rest[0] ?? target.single;
        const names = host.status().map((s) => s.name);
        if (!server) throw new UsageError('restart which server?', `One of: ${names.join(', ')}`);
        const status = await host.restart(server);
        if (json) printJson(status);
        else if (status.state === 'ready')
          print(`${colour.bold(status.name)} ${colour.green('ready')}  ${status.tools} tools`);
        else print(`${colour.bold(status.name)} ${colour.red(status.state)}  ${status.error ?? ''}`);
        return true;
      }
      default:
        throw new UsageError(`unknown command "${command}"`, 'Type "help" for the commands.');
    }
  };

  /** The question being asked now, which Ctrl-C gives up. */
  let asking: (() => void) | undefined;
  person = {
    print: (text) => {
      progress.clear();
      process.stdout.write(`${text}\n`);
    },
    ask: (question) =>
      new Promise<string>((resolve, reject) => {
        progress.clear();
        // Ctrl-C gives the question up: the signal takes it back from readline, so that the next line
        // is a command again.
        const controller = new AbortController();
        asking = () => {
          controller.abort();
          reject(new UsageError('the question was given up (Ctrl-C)'));
        };
        rl.question(colour.cyan(question), { signal: controller.signal }, (answer) => {
          asking = undefined;
          resolve(answer);
        });
      }),
  };
  let atPrompt = false;
  redraw = () => {
    if (atPrompt) rl.prompt(true);
  };
  const prompt = () => {
    atPrompt = true;
    rl.prompt();
  };
  // Ctrl-C, as in every REPL: it cancels the call that runs (notifications/cancelled, or closing the
  // request's exchange on 2026-07-28 HTTP) and comes back to a working prompt; at the prompt it clears the
  // line. Ctrl-D (or "exit") ends the shell.
  rl.on('SIGINT', () => {
    if (asking) {
      const giveUp = asking;
      asking = undefined;
      process.stdout.write('\n');
      giveUp();
      return;
    }
    if (running) {
      // The reason goes to the server with notifications/cancelled.
      running.abort(new Error('cancelled at the keyboard (Ctrl-C in mcpwire shell)'));
      return;
    }
    // The half-typed line stays visible above, as a terminal shows it; the new prompt below is empty.
    process.stdout.write('\n');
    rl.write(null, { ctrl: true, name: 'e' });
    rl.write(null, { ctrl: true, name: 'u' });
    prompt();
  });
  return new Promise<number>((resolve) => {
    let busy = Promise.resolve(true);
    rl.on('line', (line) => {
      atPrompt = false;
      busy = busy.then(async (goOn) => {
        if (!goOn) return false;
        try {
          goOn = await handle(line);
        } catch (error) {
          progress.clear();
          // Reported whatever failed before: only the exit code is the first failure's.
          const code = report(error);
          failed ||= code;
        }
        if (goOn) prompt();
        else rl.close();
        return goOn;
      });
    });
    rl.on('close', () => {
      void busy.then(() => {
        redraw = undefined;
        person = undefined;
        resolve(interactive ? ExitCode.Ok : failed);
      });
    });
    prompt();
  });
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/**
 * `call TOOL {...}`: the JSON as typed, checked here so that its errors speak of the shell's syntax (the
 * one-shot command's own messages name its --args flag, which the shell does not have).
 */
function checkJsonArguments(text: string, toolName: string): void {
  const hint = `Give one JSON object after the tool's name, e.g. call ${toolName} {"key": "value"}, or key=value pairs.`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`the arguments are not valid JSON: ${(error as Error).message}`, hint);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UsageError('the arguments must be one JSON object', hint);
  }
}
