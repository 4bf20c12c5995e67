// The hand-written stdio proxy, the lower bound of the trace benchmark: it starts the command in argv and
// copies bytes both ways (stdin -> the child's stdin, the child's stdout -> stdout) with no parsing and no
// log. What it adds to a round trip is what any proxy process costs: two more pipe hops.
import { spawn } from 'node:child_process';

const [command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
process.stdin.pipe(child.stdin);
child.stdout.pipe(process.stdout);
child.stdin.on('error', () => {});
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
