// Protocol types, named as the MCP specification names them. The internal shape is the 2025-11-25
// revision's; the per-revision codecs (codec.ts) turn it into what older revisions expect on the wire.

export type ProtocolVersion = string;
export type Cursor = string;
export type ProgressToken = string | number;
export type Role = 'user' | 'assistant';
export type LoggingLevel =
  | 'debug'
  | 'info'
  | 'notice'
  | 'warning'
  | 'error'
  | 'critical'
  | 'alert'
  | 'emergency';

export type Meta = Record<string, unknown>;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface ClientCapabilities {
  experimental?: Record<string, object>;
  roots?: { listChanged?: boolean };
  sampling?: { context?: object; tools?: object };
  elicitation?: { form?: object; url?: object };
  tasks?: object;
  /** Extensions the client supports (SEP-2133): identifier to settings, {} for none. */
  extensions?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  experimental?: Record<string, object>;
  logging?: object;
  completions?: object;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  /** Extensions the server supports (SEP-2133): identifier to settings, {} for none. */
  extensions?: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface InitializeRequestParams {
  protocolVersion: ProtocolVersion;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  _meta?: Meta;
}

export interface InitializeResult {
  protocolVersion: ProtocolVersion;
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions?: string;
  _meta?: Meta;
}

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Meta;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Meta;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Meta;
}

export interface ResourceLink extends Resource {
  type: 'resource_link';
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** A JSON Schema object, passed through as given. */
export type JsonSchema = Record<string, unknown>;

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface CallToolRequestParams {
  name: string;
  arguments?: Record<string, unknown>;
  _meta?: Meta;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Meta;
}

export interface Resource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: Meta;
}

export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Meta;
}

export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: Meta;
}

export interface PromptMessage {
  role: Role;
  content: ContentBlock;
}

export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Meta;
}

export interface PromptReference {
  type: 'ref/prompt';
  name: string;
}

export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

export interface CompleteRequestParams {
  ref: PromptReference | ResourceTemplateReference;
  argument: { name: string; value: string };
  context?: { arguments?: Record<string, string> };
}

export interface CompleteResult {
  completion: { values: string[]; total?: number; hasMore?: boolean };
  _meta?: Meta;
}

export interface Root {
  uri: string;
  name?: string;
  _meta?: Meta;
}

export interface ListRootsResult {
  roots: Root[];
}

export interface SamplingMessage {
  role: Role;
  content: TextContent | ImageContent | AudioContent;
}

export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  modelPreferences?: Record<string, unknown>;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  metadata?: object;
  [key: string]: unknown;
}

export interface CreateMessageResult {
  role: Role;
  content: TextContent | ImageContent | AudioContent;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}

export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: JsonSchema;
}

export interface ElicitRequestURLParams {
  mode: 'url';
  message: string;
  elicitationId: string;
  url: string;
}

export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestURLParams;

export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean | string[]>;
}

export interface LoggingMessageNotificationParams {
  level: LoggingLevel;
  logger?: string;
  data: unknown;
}
