// One big text file read through resources/read, the server's side (issue 21): a client that writes the
// request and only counts the answer's bytes up to its newline, so the time is the server's reading,
// escaping and writing and the pipe, not the client's parsing. The same file for every server, in the
// page cache for all (one untimed read each first), servers taking turns over at least five rounds.
// mcpwire twice: `serve fs` (the CLI, which checks the text is UTF-8 and counts its escapes against the
// message size limit before it writes) and an McpServer whose resource is a streamedFile; the official
// SDK's McpServer reading the file whole; and the hand-written lower bound (readFile, JSON.stringify, one
// write).

import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatBytes, MiB } from '../lib/format.js';
import { PEERS_DIR } from '../lib/peer.js';
import { packageVersion } from '../lib/results.js';
import type { Row, Section, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';

const BIN = path.join(PEERS_DIR, '..', '..', 'bin', 'mcpwire.js');

/** Prose with what text files hold: quotes, tabs, newlines, accented and CJK characters. */
function makeText(bytes: number): Buffer {
  const line = 'He said "the file is big" and left.\tÉté, naïve café; 東京 — 42 lines\n';
  const unit = Buffer.from(line, 'utf8');
  return Buffer.concat(Array.from({ length: Math.ceil(bytes / unit.length) }, () => unit)).subarray(0, bytes);
}

/** A stdio server answering one request at a time; `read` resolves with the answer's byte count. */
class CountingClient {
  private waiting: ((bytes: number) => void) | undefined;
  private counted = 0;
  private id = 0;

  constructor(readonly child: ChildProcess) {
    child.stdout!.on('data', (chunk: Buffer) => {
      this.counted += chunk.length;
      if (chunk[chunk.length - 1] === 0x0a && this.waiting) {
        const resolve = this.waiting;
        this.waiting = undefined;
        resolve(this.counted);
      }
    });
  }

  request(method: string, params: unknown): Promise<number> {
    this.counted = 0;
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
      this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params })}\n`);
    });
  }

  /** VmHWM: the server's peak resident set, in MiB. */
  peakRssMiB(): number {
    const line = readFileSync(`/proc/${this.child.pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmHWM:'));
    return Number(line?.split(/\s+/)[1] ?? 0) / 1024;
  }
}

export const bigRead: Suite = {
  name: 'big-read',
  description:
    'one big text file through resources/read, the server side: serve fs, a streamed McpServer, SDK, hand-written',
  async run(context) {
    const bytes = context.quick ? 16 * MiB : 100 * MiB;
    const rounds = context.quick ? 3 : 7;
    const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-big-read-'));
    const file = path.join(dir, 'big.txt');
    writeFileSync(file, makeText(bytes));
    const uri = pathToFileURL(file).href;
    const sdk = `sdk ${packageVersion('@modelcontextprotocol/sdk')}`;
    const config = JSON.stringify({ file });
    const subjects = [
      { name: 'mcpwire serve fs (CLI)', args: [BIN, 'serve', 'fs', '--root', dir], target: 1.05 },
      {
        name: 'mcpwire McpServer, streamedFile',
        args: [`${PEERS_DIR}mcpwire-file-server.mjs`, config],
        target: 0.6,
      },
      { name: sdk, args: [`${PEERS_DIR}sdk-file-server.mjs`, config] },
      { name: 'hand-written', args: [`${PEERS_DIR}raw-file-server.mjs`, config] },
    ];
    const clients = subjects.map(
      (s) => new CountingClient(spawn(process.execPath, s.args, { stdio: ['pipe', 'pipe', 'inherit'] })),
    );
    const samples: number[][] = subjects.map(() => []);
    const sizes: number[] = subjects.map(() => 0);
    try {
      for (const client of clients) {
        await client.request('initialize', {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'bench', version: '1' },
        });
        client.child.stdin!.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      }
      for (let round = 0; round <= rounds; round++) {
        for (let k = 0; k < clients.length; k++) {
          const i = (k + round) % clients.length; // each first in its round in turn
          const start = performance.now();
          sizes[i] = await clients[i]!.request('resources/read', { uri });
          const ms = performance.now() - start;
          if (round > 0) samples[i]!.push(ms); // round 0: page cache and JIT, untimed
          context.progress(
            `  ${round === 0 ? 'untimed' : `round ${round}/${rounds}`} ${subjects[i]!.name}: ${ms.toFixed(0)} ms`,
          );
        }
      }
      const peaks = clients.map((c) => c.peakRssMiB());
      const raw = median(samples[3]!);
      const rows = subjects.map((s, i): Row => {
        const ms = median(samples[i]!);
        return {
          case: `${formatBytes(bytes)} text file, resources/read`,
          subject: s.name,
          medianMs: ms,
          samplesMs: samples[i],
          throughput: bytes / MiB / (ms / 1000),
          unit: 'MiB/s',
          ratios: { lowerBound: ms / raw, sdk: ms / median(samples[2]!) },
          peakRssMiB: { server: peaks[i]! },
          ...(s.target === undefined
            ? {}
            : { target: { text: `<= ${s.target}x hand-written time`, met: ms / raw <= s.target } }),
        };
      });
      const section: Section = {
        title: `One ${formatBytes(bytes)} text file through resources/read, the server's side`,
        ratioColumns: [
          { key: 'lowerBound', header: 'time ÷ hand-written' },
          { key: 'sdk', header: `time ÷ ${sdk}` },
        ],
        rows,
        notes: [
          `From the client writing resources/read to the last byte of the answer (${(sizes[3]! / MiB).toFixed(1)} MiB of JSON: the file's text escaped), counted but not parsed. The same file for all, in the page cache (one untimed read each), ${rounds} rounds with the servers taking turns, each first in its round in turn.`,
          'mcpwire writes the text into the frame as it reads the file (1 MiB chunks, the next read while the last is written; escaped byte for byte, never decoded). `serve fs` first reads the file once to check that it is UTF-8 and, when its escapes could take it past the message size limit (256 MiB by default: a file over ~42 MiB), to count them: the answer is refused before a byte is written, as the whole read refused it. The McpServer row is a resource that returns streamedFile(path, "text"), whose author vouches for the text. The hand-written server and the SDK read the file whole as UTF-8, then JSON.stringify the answer and write it.',
          'Targets (issue 21): serve fs <= 1.05x and the streamed resource <= 0.6x the hand-written time.',
        ],
      };
      return [section];
    } finally {
      for (const client of clients) client.child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
