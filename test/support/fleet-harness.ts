// A fleet started by the tests themselves on 127.0.0.1: a real redis-server and a real HAProxy
// (round-robin, no stickiness) in a temporary directory, and mcpwire instances (`mcpwire serve
// everything --http PORT --redis URL`, or another built-in server) behind it. A missing binary fails with the command to install it.

import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, REPO_ROOT } from './peers.js';

/** Fails (never skips) when a Debian package the fleet tests start is missing. */
export function requireBinary(binary: string, pkg: string): void {
  const found = spawnSync('sh', ['-c', `command -v "${binary}"`], { stdio: 'ignore' }).status === 0;
  if (!found) {
    throw new Error(
      `${binary} is not installed: run "apt-get update && apt-get install -y ${pkg}" as root (or node scripts/setup-system.mjs)`,
    );
  }
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Resolves once the process printed a line matching `ready` (stdout or stderr); rejects if it exits first. */
function waitFor(child: ChildProcess, ready: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = ready.exec(seen);
      if (match) {
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        resolve(match[0]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${seen}`)));
  });
}

export class RedisProcess {
  private child: ChildProcess | undefined;
  constructor(
    readonly port: number,
    private readonly dir: string,
  ) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.child = spawn(
      'redis-server',
      [
        '--port',
        String(this.port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        this.dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    await waitFor(this.child, /Ready to accept connections/, 'redis-server');
  }

  async stop(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

export class Instance {
  /** Its name on the fleet's bus (what its stream ids start with). */
  id = '';
  constructor(
    readonly port: number,
    readonly child: ChildProcess,
  ) {}

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGKILL');
    await exited;
  }
}

export interface Fleet {
  redis: RedisProcess;
  instances: Instance[];
  /** The balancer's MCP endpoint. */
  url: string;
  /**
   * Cuts every connection HAProxy holds to an instance (by its index), which keeps running, and sends it
   * no new request until `restore`: its clients must resume on another instance.
   */
  cut(index: number): Promise<void>;
  restore(index: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `redis: false` starts the instances without Redis (each alone: only one makes sense), for comparison.
 * `server` names the built-in server and its arguments, given the fleet's temporary directory
 * (`serve everything` by default).
 */
export async function startFleet(
  count: number,
  extraArgs: string[] = [],
  {
    redis: useRedis = true,
    server = () => ['everything'],
  }: { redis?: boolean; server?: (dir: string) => string[] } = {},
): Promise<Fleet> {
  requireBinary('redis-server', 'redis-server');
  requireBinary('haproxy', 'haproxy');
  const dir = mkdtempSync(join(tmpdir(), 'mcpwire-fleet-'));
  const redis = new RedisProcess(await freePort(), dir);
  await redis.start();
  const instances: Instance[] = [];
  let haproxy: ChildProcess | undefined;
  const stop = async () => {
    haproxy?.kill('SIGKILL');
    await Promise.all(instances.map((i) => i.kill()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const port = await freePort();
      const child = spawn(
        process.execPath,
        [
          BIN,
          'serve',
          ...server(dir),
          '--http',
          String(port),
          ...(useRedis ? ['--redis', redis.url] : []),
          '--request-state-key',
          'a shared secret of the test fleet',
          ...extraArgs,
        ],
        { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const instance = new Instance(port, child);
      instances.push(instance);
      const line = await waitFor(
        child,
        useRedis ? /fleet instance (\w+)/ : /listening on \S+/,
        `instance ${i + 1}`,
      );
      instance.id = line.split(' ').pop() ?? '';
    }
    const port = await freePort();
    const config = join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 1000',
        `  stats socket ${join(dir, 'haproxy.sock')} mode 600 level admin`,
        'defaults',
        '  mode http',
        '  timeout connect 2s',
        '  timeout client 120s',
        '  timeout server 120s',
        '  timeout tunnel 120s',
        // Every request goes to the next instance in turn: no stickiness of any kind.
        '  option http-server-close',
        `frontend mcp`,
        `  bind 127.0.0.1:${port}`,
        '  default_backend instances',
        'backend instances',
        '  balance roundrobin',
        // Which instance served each answer (i1, i2, …: the order of `instances`), for tests that check
        // that two requests crossed instances.
        '  http-response set-header X-Fleet-Instance %[srv_name]',
        '  retry-on conn-failure',
        '  retries 2',
        '  option redispatch',
        ...instances.map(
          (instance, i) => `  server i${i + 1} 127.0.0.1:${instance.port} check inter 500ms fall 1 rise 1`,
        ),
        '',
      ].join('\n'),
    );
    haproxy = spawn('haproxy', ['-f', config, '-db'], { stdio: ['ignore', 'pipe', 'pipe'] });
    await waitForPort(port, haproxy);
    const admin = (command: string) => haproxyCommand(join(dir, 'haproxy.sock'), command);
    return {
      redis,
      instances,
      url: `http://127.0.0.1:${port}/mcp`,
      cut: async (index) => {
        await admin(`set server instances/i${index + 1} state maint`);
        await admin(`shutdown sessions server instances/i${index + 1}`);
      },
      restore: async (index) => {
        await admin(`set server instances/i${index + 1} state ready`);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Resolves once something accepts connections on the port (HAProxy prints nothing when it is ready). */
async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const { connect } = await import('node:net');
  for (;;) {
    if (child.exitCode !== null) throw new Error(`haproxy exited (${child.exitCode})`);
    const ok = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Sends one command to HAProxy's admin socket; resolves with its answer, rejects if it names an error. */
async function haproxyCommand(socketPath: string, command: string): Promise<string> {
  const { connect } = await import('node:net');
  const answer = await new Promise<string>((resolve, reject) => {
    let text = '';
    const socket = connect(socketPath, () => socket.end(`${command}\n`));
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.once('end', () => resolve(text));
    socket.once('error', reject);
  });
  if (/unknown|no such|not found|error/i.test(answer)) throw new Error(`haproxy: ${command}: ${answer}`);
  return answer;
}
