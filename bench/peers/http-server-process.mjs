// What the HTTP client peers share: starting the server command, which prints {"url": ...} on stdout once
// it listens, and stopping it (its stdin closing is its signal to exit).
import { spawn } from 'node:child_process';

export function startHttpServer(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /"url":"([^"]+)"/.exec(seen);
      // A server command that fronts another process (a bridge) may name the pid to measure.
      const pid = Number(/"pid":(\d+)/.exec(seen)?.[1] ?? child.pid);
      if (match) resolve({ url: match[1], pid, stop: () => child.stdin.end() });
    });
    child.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}) before listening`)));
  });
}
