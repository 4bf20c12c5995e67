// Names across servers: two servers may both offer a "search" tool, so the host lists them as
// "<server>__<tool>" (by default) and routes a call back by splitting the name again.

export interface Naming {
  qualify(server: string, name: string): string;
  /** The server and the server's own name, or undefined when the name is not one of ours. */
  split(qualified: string, servers: readonly string[]): { server: string; name: string } | undefined;
}

export function separatorNaming(separator = '__'): Naming {
  return {
    qualify: (server, name) => `${server}${separator}${name}`,
    split: (qualified, servers) => {
      // Longest server name first, so "a__b" and "a" do not shadow each other.
      for (const server of [...servers].sort((x, y) => y.length - x.length)) {
        const prefix = `${server}${separator}`;
        if (qualified.startsWith(prefix)) return { server, name: qualified.slice(prefix.length) };
      }
      return undefined;
    },
  };
}
