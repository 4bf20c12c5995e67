// What the HTTP client peers share: starting the server command, which prints {"url": ...} on stdout once
// it listens, and stopping it (its stdin closing is its signal to exit; `stop()` resolves once it has
// exited, so that a client closed is a server gone: the http-instructions suite counts the next server only
// then).
import { spawn } from 'node:child_process';

export function startHttpServer(command, args) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = () => {
    child.stdin.end();
    return exited.then(() => undefined);
  };
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const match = /"url":"([^"]+)"/.exec(seen);
      // A server command that fronts another process (a bridge) may name the pid to measure.
      const pid = Number(/"pid":(\d+)/.exec(seen)?.[1] ?? child.pid);
      // A server may also name a URL that answers its heap in use (the HTTP server suite's idle sessions).
      const heapUrl = /"heapUrl":"([^"]+)"/.exec(seen)?.[1];
      if (match) resolve({ url: match[1], heapUrl, pid, stop });
    });
    child.once('exit', (code) => reject(new Error(`the HTTP server exited (${code}) before listening`)));
  });
}
