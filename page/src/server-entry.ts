// What the person types to add a server, turned into a configuration's "mcpServers" table: a command line
// (split as a POSIX shell splits words: quotes and backslashes, nothing expanded), a URL with headers, or
// a whole configuration pasted as JSON. Pure logic: the page renders the form, the tests call this.

export type AddKind = 'command' | 'url' | 'config';

export interface AddForm {
  kind: AddKind;
  name: string;
  /** The command line, the URL, or the configuration's JSON. */
  text: string;
  /** For a URL: one "Name: value" header a line. */
  headers?: string;
}

/** The words of a command line; throws on an unclosed quote. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`the command line has an unclosed ${quote}`);
  if (inWord) words.push(word);
  return words;
}

/** The "mcpServers" table the API takes; throws with what is wrong, before anything is sent. */
export function serversFrom(form: AddForm): Record<string, unknown> {
  const name = form.name.trim();
  if (form.kind === 'config') {
    let json: unknown;
    try {
      json = JSON.parse(form.text);
    } catch (error) {
      throw new Error(`the configuration is not JSON: ${(error as Error).message}`);
    }
    const table =
      (json as { mcpServers?: unknown; servers?: unknown } | null)?.mcpServers ??
      (json as { servers?: unknown } | null)?.servers;
    if (typeof table !== 'object' || table === null || Array.isArray(table))
      throw new Error('a configuration is {"mcpServers": {"name": {"command": "...", "args": []}}}');
    return table as Record<string, unknown>;
  }
  if (!name) throw new Error('give the server a name');
  if (form.kind === 'url') {
    const url = form.text.trim();
    if (!/^https?:\/\/\S+$/.test(url)) throw new Error('the URL starts with http:// or https://');
    const headers: Record<string, string> = {};
    for (const line of (form.headers ?? '').split('\n')) {
      if (!line.trim()) continue;
      const colon = line.indexOf(':');
      if (colon < 1) throw new Error(`"${line.trim()}" is not a header (Name: value)`);
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
    }
    return { [name]: { url, headers } };
  }
  const [command, ...args] = splitCommandLine(form.text);
  if (!command) throw new Error('type the command that starts the server');
  return { [name]: { command, args } };
}
