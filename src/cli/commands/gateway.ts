// `mcpwire gateway CONFIG [--http PORT]`: every server of an mcpServers configuration behind one MCP
// server, on stdio or Streamable HTTP. The composition is src/gateway's; this file parses the options,
// wires the pieces and says on stderr what happens to the servers.

import { parseArgs } from 'node:util';
import {
  type Gateway,
  loadGatewayConfig,
  openGateway,
  serveGatewayHttp,
  serveGatewayStdio,
} from '../../gateway/gateway.js';
import { ConfigError } from '../../host/config.js';
import { OAuthClient } from '../../transport/http/auth/oauth-client.js';
import { parseSize } from '../options.js';
import { packageVersion } from '../package-info.js';
import { StrayOutput } from '../stray-output.js';
import { tokenStore } from '../target.js';
import { UsageError } from '../usage.js';
import { parsePort } from './trace-http.js';

export const usage = `Usage: mcpwire gateway CONFIG [--http PORT] [--host ADDR] [--verbose]

Runs every server of the mcpServers configuration CONFIG (stdio commands and remote urls alike) and
serves them as one MCP server: on stdin/stdout, or with --http on a Streamable HTTP endpoint on
127.0.0.1:PORT (the URL is printed on stderr). Tools and prompts are named "<server>__<name>", resources
keep their URIs; every list is paginated, and clients are told when any server's lists change. A server
that crashes is restarted with back-off, its calls in flight fail at once, and the others go on.

Filters and renames go in a server's entry, beside its command or url:
  {"mcpServers": {
    "fs": {"command": "npx", "args": ["mcpwire", "serve", "fs"],
           "tools": {"allow": ["read_*", "list_*"], "deny": ["*_media_*"], "rename": {"read_text_file": "read"}},
           "resources": {"deny": ["file:///secret/*"]}},
    "docs": {"url": "https://example.com/mcp", "prompts": {"allow": []}}}}
  allow and deny take globs (* any characters, ? one); tools and prompts match by the server's own names,
  resources and templates by URI. rename maps the server's names to the names shown (before the prefix).

Options:
  --http PORT               serve Streamable HTTP on PORT (0: a free port) instead of stdio
  --host ADDR               the address to bind with --http (default 127.0.0.1)
  --max-message-size SIZE   largest request body with --http (default 4MiB)
  --verbose                 say on stderr when a server starts, crashes and restarts, and copy its stderr`;

export async function run(argv: string[]): Promise<number> {
  let parsed: {
    values: { http?: string; host?: string; 'max-message-size'?: string; verbose?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        http: { type: 'string' },
        host: { type: 'string' },
        'max-message-size': { type: 'string' },
        verbose: { type: 'boolean' },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire gateway --help".');
  }
  const { values, positionals } = parsed;
  const [file, ...extra] = positionals;
  if (file === undefined) throw new UsageError('which configuration? e.g. mcpwire gateway servers.json');
  if (extra.length > 0)
    throw new UsageError(`gateway takes one configuration file; got also ${extra.join(' ')}`);
  if (values.http === undefined && values.host !== undefined)
    throw new UsageError('--host goes with --http PORT');
  let config: Awaited<ReturnType<typeof loadGatewayConfig>>;
  try {
    config = await loadGatewayConfig(file);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
  if (Object.keys(config.host.servers).length === 0) throw new UsageError(`${file} configures no servers`);
  const say = (text: string) => process.stderr.write(`mcpwire gateway: ${text}\n`);
  const stray = new StrayOutput();
  const gateway: Gateway = await openGateway(config, {
    info: { name: 'mcpwire-gateway', version: packageVersion() },
    host: {
      clientInfo: { name: 'mcpwire-gateway', version: packageVersion() },
      authorization: (_server, url) => new OAuthClient({ server: url, store: tokenStore() }),
      stderr: values.verbose ? (server, text) => process.stderr.write(`[${server}] ${text}`) : 'pipe',
      onEvent: (event) => {
        // Said at once, as every command does: a client of the gateway would see only a request that hangs.
        if (
          event.type === 'problem' &&
          (event.problem.kind === 'parse-error' || event.problem.kind === 'framing')
        )
          stray.report(`server "${event.server}"`, String(event.problem.detail ?? ''));
        else if (event.type === 'failed') say(`server "${event.server}" failed to start: ${event.error}`);
        else if (event.type === 'crashed') say(`server "${event.server}" crashed: ${event.reason}`);
        else if (values.verbose && event.type === 'ready') say(`server "${event.server}" is ready`);
        else if (values.verbose && event.type === 'restarting')
          say(`server "${event.server}" restarts in ${event.delayMs} ms (attempt ${event.attempt})`);
      },
    },
  });
  if (values.http === undefined) {
    await serveGatewayStdio(gateway);
    await gateway.close();
    return 0;
  }
  const port = parsePort(values.http);
  let listener: Awaited<ReturnType<typeof serveGatewayHttp>>;
  try {
    listener = await serveGatewayHttp(gateway, {
      port,
      host: values.host,
      maxBodySize: values['max-message-size']
        ? parseSize(values['max-message-size'], '--max-message-size')
        : undefined,
    });
  } catch (error) {
    await gateway.close();
    throw new UsageError(
      `cannot listen on ${values.host ?? '127.0.0.1'}:${port}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  say(`listening on ${listener.url}`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
    process.once('SIGHUP', () => resolve());
  });
  await listener.close();
  await gateway.close();
  return 0;
}
