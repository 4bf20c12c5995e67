// What the inspector's API sends: the shapes the page reads (see src/inspect/web on the server side).

export type Direction = 'client' | 'server';

interface Base {
  seq: number;
  at: number;
  server: string;
}

export type FeedEntry =
  | (Base & {
      type: 'message';
      from: Direction;
      payload: unknown;
      latencyMs?: number;
      answers?: string;
      pair?: number;
    })
  | (Base & { type: 'problem'; kind: string; from: Direction; message: string; bytes?: string })
  | (Base & { type: 'stderr'; text: string })
  | (Base & { type: 'host'; event: string; detail?: string });

export interface Tool {
  name: string;
  originalName: string;
  server: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export interface Prompt {
  name: string;
  originalName: string;
  server: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface Resource {
  uri: string;
  name: string;
  server: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

export interface Template {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
}

export interface ServerState {
  name: string;
  state: string;
  error?: string;
  hint?: string;
  transport?: string;
  url?: string;
  serverInfo?: { name: string; version: string };
  protocolVersion?: string;
  era?: string;
  capabilities?: Record<string, unknown>;
  instructions?: string;
  templates?: Template[];
}

export interface Ask {
  id: string;
  server: string;
  kind: 'elicitation' | 'sampling';
  params: Record<string, unknown>;
}

export interface SessionState {
  servers: ServerState[];
  tools: Tool[];
  prompts: Prompt[];
  resources: Resource[];
  roots: Array<{ uri: string; name?: string }>;
  level: string;
  subscribed: string[];
  asks: Ask[];
  doctor: boolean;
  lastSeq: number;
}

export type SessionEvent =
  | { type: 'state' }
  | { type: 'ask'; ask: Ask }
  | { type: 'asked'; id: string }
  | { type: 'progress'; callId: string; progress: number; total?: number; message?: string }
  | { type: 'updated'; server: string; uri: string };
