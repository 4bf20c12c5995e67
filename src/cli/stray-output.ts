// What a command says when a server writes something on stdout that is not JSON-RPC: at once, with the
// first bytes quoted, in every command that talks to a server (the call it broke used to be found out only
// when it timed out). A few lines are shown; a flood of them is only counted.

const SHOWN = 3;
const EXCERPT = 120;

export class StrayOutput {
  /** How many lines that were not JSON-RPC have been seen. */
  count = 0;

  constructor(private readonly stream: NodeJS.WritableStream = process.stderr) {}

  /** `who` is "the server" or `server "NAME"`; `excerpt` the start of what it wrote. */
  report(who: string, excerpt: string): void {
    this.count++;
    if (this.count <= SHOWN) {
      this.stream.write(
        `mcpwire: ${who} wrote something that is not JSON-RPC to stdout: ${JSON.stringify(excerpt.slice(0, EXCERPT))}\n`,
      );
    } else if (this.count === SHOWN + 1) {
      this.stream.write('mcpwire: (more lines that are not JSON-RPC are not shown)\n');
    }
  }
}
