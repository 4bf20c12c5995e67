// Real remote MCP servers for the tests, each its own process on 127.0.0.1: mcpwire's own HTTP server, the
// official SDK v1 behind Streamable HTTP and behind the older HTTP+SSE transport, and the reference
// server-everything in both of its HTTP modes. Each resolves once the server listens, with its URL.

import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { BIN, EVERYTHING_BIN, REPO_ROOT } from './peers.js';

export type RemoteKind =
  | 'mcpwire'
  | 'sdk-streamable'
  | 'sdk-sse'
  | 'everything-streamable'
  | 'everything-sse'
  /** test/fixtures/doctor-http/server.mjs, breaking the rule named by `fault` (or none). */
  | 'doctor-http';

export interface RemoteServer {
  kind: RemoteKind;
  url: string;
  port: number;
  child: ChildProcess;
  /** Ends the process and waits for its exit. */
  stop(): Promise<void>;
}

const SDK_REMOTE = path.join(REPO_ROOT, 'test', 'fixtures', 'http', 'sdk-v1-remote.mjs');
const DOCTOR_HTTP = path.join(REPO_ROOT, 'test', 'fixtures', 'doctor-http', 'server.mjs');

/** A port nobody listens on right now (for servers that cannot be told to pick one, and restarts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startRemote(kind: RemoteKind, port?: number, fault = 'none'): Promise<RemoteServer> {
  const chosen = port ?? (kind.startsWith('everything') ? await freePort() : 0);
  const env = { ...process.env, PORT: String(chosen) };
  let child: ChildProcess;
  // How each announces that it listens: a line on stdout or stderr, from which the URL is read.
  let announce: (text: string) => string | undefined;
  switch (kind) {
    case 'mcpwire':
      child = spawn(process.execPath, [BIN, 'serve', 'everything', '--http', String(chosen)], { env });
      announce = (text) => /listening on (http:\/\/\S+)/.exec(text)?.[1];
      break;
    case 'sdk-streamable':
    case 'sdk-sse':
      child = spawn(process.execPath, [SDK_REMOTE, kind === 'sdk-sse' ? 'sse' : 'streamable'], { env });
      announce = (text) => /"url":"([^"]+)"/.exec(text)?.[1];
      break;
    case 'doctor-http':
      child = spawn(process.execPath, [DOCTOR_HTTP, fault], { env });
      announce = (text) => /"url":"([^"]+)"/.exec(text)?.[1];
      break;
    default: {
      const mode = kind === 'everything-sse' ? 'sse' : 'streamableHttp';
      child = spawn(EVERYTHING_BIN, [mode], { env });
      const suffix = kind === 'everything-sse' ? '/sse' : '/mcp';
      announce = (text) =>
        /listening on port|running on port/i.test(text) ? `http://127.0.0.1:${chosen}${suffix}` : undefined;
    }
  }
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      const found = announce(seen);
      if (found) resolve(found);
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`${kind} exited with ${code} before listening:\n${seen}`)));
    child.once('error', reject);
  });
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    kind,
    url,
    port: Number(new URL(url).port),
    child,
    stop: async () => {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
