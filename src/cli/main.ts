// The mcpwire command line. This is the only part of mcpwire that prints for people; every command is a
// module of its own, loaded only when it runs, so that `mcpwire serve ...` starts fast.

import { packageVersion } from './package-info.js';
import { UsageError } from './usage.js';

interface Command {
  summary: string;
  /** The module exports its own usage text and `run`. */
  load(): Promise<{ run(argv: string[]): Promise<number>; usage: string }>;
}

const commands: Record<string, Command> = {
  demo: {
    summary: 'a typical exchange between a host and a filesystem server, live, every message explained',
    load: () => import('./commands/demo.js'),
  },
  serve: {
    summary: 'run a built-in MCP server on stdio or Streamable HTTP (fs, sqlite, everything)',
    load: () => import('./commands/serve.js'),
  },
  tools: { summary: 'list the tools of servers', load: () => import('./commands/tools.js') },
  call: {
    summary: 'call a tool: mcpwire call TOOL key=value -- COMMAND',
    load: () => import('./commands/call.js'),
  },
  resources: { summary: 'list resources and templates', load: () => import('./commands/resources.js') },
  read: { summary: 'read a resource by URI', load: () => import('./commands/read.js') },
  prompts: { summary: 'list prompts', load: () => import('./commands/prompts.js') },
  doctor: {
    summary: 'check a stdio server against JSON-RPC 2.0 and the MCP specification',
    load: () => import('./commands/doctor.js'),
  },
  trace: {
    summary: 'a transparent stdio proxy that records and checks every message',
    load: () => import('./commands/trace.js'),
  },
  inspect: {
    summary:
      'a web page on this machine to try servers and watch their wire (tools, resources, prompts, logs)',
    load: () => import('./commands/inspect.js'),
  },
  proxy: {
    summary: 'a stdio server over Streamable HTTP (--http PORT -- COMMAND), or a remote one on stdio (--url)',
    load: () => import('./commands/proxy.js'),
  },
  gateway: {
    summary: 'every server of a configuration as one MCP server (stdio, or --http PORT), with filters',
    load: () => import('./commands/gateway.js'),
  },
  replay: {
    summary: 'send a recorded trace to a server again and show where its answers now differ',
    load: () => import('./commands/replay.js'),
  },
  login: {
    summary: 'log in to a remote server that needs OAuth; later --url commands use the tokens',
    load: () => import('./commands/login.js'),
  },
  logout: { summary: 'forget the tokens of a remote server', load: () => import('./commands/logout.js') },
  shell: { summary: 'an interactive shell over servers', load: () => import('./commands/shell.js') },
  'get-prompt': { summary: 'get a prompt with arguments', load: () => import('./commands/get-prompt.js') },
};

function help(): string {
  const names = Object.keys(commands);
  const width = Math.max(8, ...names.map((n) => n.length));
  const lines = [
    'mcpwire: the Model Context Protocol, exact on the wire and fast.',
    '',
    'Usage: mcpwire <command> [options]',
    '',
    'Commands:',
    ...names.map((name) => `  ${name.padEnd(width)}  ${commands[name]!.summary}`),
    '',
    'Options:',
    "  -h, --help       show this help (or a command's: mcpwire <command> --help)",
    '  -v, --version    show the version',
    '',
  ];
  return lines.join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' ? rest[0] : undefined;
    if (topic && commands[topic]) process.stdout.write(`${(await commands[topic].load()).usage}\n`);
    else process.stdout.write(help());
    return 0;
  }
  if (first === '-v' || first === '--version' || first === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const command = commands[first];
  if (!command) {
    const known = Object.keys(commands);
    process.stderr.write(
      `mcpwire: unknown command "${first}".${known.length ? ` Commands: ${known.join(', ')}.` : ''} Run "mcpwire --help" for usage.\n`,
    );
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    const dash = rest.indexOf('--');
    const helpAt = rest.findIndex((a) => a === '--help' || a === '-h');
    if (dash === -1 || helpAt < dash) {
      process.stdout.write(`${(await command.load()).usage}\n`);
      return 0;
    }
  }
  try {
    const module = await command.load();
    return await module.run(rest);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(
        `mcpwire ${first}: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`,
      );
      return 2;
    }
    throw error;
  }
}
