// `mcpwire shell`: an interactive shell over every configured server, with history, tab completion of
// commands, tools and argument names, progress bars, and log messages as they arrive.

import { appendFileSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseToolArguments } from '../arguments.js';
import { colour, formatContent, formatResourceContents, printJson, summarizeArguments } from '../format.js';
import { complete } from '../shell/completion.js';
import { type Asker, answerElicitation, answerSampling } from '../shell/forms.js';
import { ProgressLine } from '../shell/progress.js';
import { tokenize } from '../shell/tokenize.js';
import { display, qualify, type Target } from '../target.js';
import { UsageError } from '../usage.js';
import { report, runClientCommand, TARGET_USAGE } from './common.js';

export const usage = `Usage: mcpwire shell (--config FILE | -- COMMAND [ARGS])

An interactive shell over one or more servers. Type "help" inside it. Tab completes commands, tools,
prompts, resource URIs and argument names; history is kept in ~/.mcpwire_history.

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
  json on|off                print raw JSON results (--json starts with it on)
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
          colour.red(
            `server "${event.server}" crashed: ${event.reason}. Type "restart ${event.server}" to start it again.`,
          ),
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
  /** Commands that failed: a shell fed from a pipe exits 1 if any did, as a script would. */
  let failures = 0;
  let history: string[] = [];
  try {
    history = readFileSync(HISTORY_FILE, 'utf8').split('\n').filter(Boolean).reverse().slice(0, 500);
  } catch {
    // No history yet.
  }
  const rl = createInterface({
    input: process.stdin,
    output: process.stdout,
    terminal: process.stdin.isTTY === true,
    history,
    historySize: 500,
    completer: (line: string) => complete(line, host, name),
    prompt: colour.cyan('mcp> '),
  });
  const print = (text: string) => {
    progress.clear();
    process.stdout.write(`${text}\n`);
  };
  const servers = host.status().filter((s) => s.state === 'ready');
  print(
    `${colour.bold('mcpwire shell')}: ${servers.map((s) => `${s.name} (${s.tools} tools)`).join(', ')}. Type "help"; Tab completes.`,
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
        print(HELP);
        return true;
      case 'json':
        json = rest[0] !== 'off';
        print(`json ${json ? 'on' : 'off'}`);
        return true;
      case 'servers':
        for (const s of host.status()) {
          print(
            `${colour.bold(s.name)}  ${s.state === 'ready' ? colour.green(s.state) : colour.red(s.state)}  ${s.tools} tools${s.error ? `  ${colour.dim(s.error)}` : ''}`,
          );
        }
        return true;
      case 'tools':
        for (const tool of host.tools()) {
          print(
            `${colour.bold(name(tool.name, tool.originalName))}(${summarizeArguments(tool.inputSchema)})  ${colour.dim(tool.description ?? '')}`,
          );
        }
        return true;
      case 'prompts':
        for (const prompt of host.prompts()) {
          print(
            `${colour.bold(name(prompt.name, prompt.originalName))}  ${colour.dim(prompt.description ?? '')}`,
          );
        }
        return true;
      case 'resources':
        for (const r of host.resources()) print(`${r.uri}  ${colour.dim(r.name)}`);
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
        let args: Record<string, unknown>;
        try {
          args = parseToolArguments({ ...tool, name: toolName }, jsonArgs, jsonArgs ? [] : pairs);
        } catch (error) {
          if (jsonArgs === undefined || !(error instanceof UsageError)) throw error;
          throw new UsageError(
            error.message.replace(/^--args/, 'the arguments'),
            `e.g. call ${toolName} {"key": "value"} (one JSON object), or key=value pairs`,
          );
        }
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
            print(colour.yellow('(cancelled)'));
            return true;
          }
          throw error;
        } finally {
          running = undefined;
        }
        progress.clear();
        if (json) printJson(result);
        else for (const block of result.content ?? []) print(formatContent(block));
        if (result.isError) print(colour.red('(the tool reported an error)'));
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
        if (status.state === 'ready')
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
      running.abort();
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
          report(error);
          failures++;
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
        resolve(failures > 0 && process.stdin.isTTY !== true ? 1 : 0);
      });
    });
    prompt();
  });
}
