// mcpwire/server: what a server's author needs, and nothing of the client, the host, the gateway or the
// OAuth client. A server that imports it loads a third of the code the whole package's entry loads, and
// answers its first request sooner (issue 21: cold start). Every name here is the same one `mcpwire`
// exports: the two entries share their modules, so a class is one class whichever entry it came from.

export { ErrorCode } from './jsonrpc/error-codes.js';
export { type CloseReason, JsonRpcError } from './jsonrpc/errors.js';
export { McpwireError, type McpwireErrorCode } from './jsonrpc/local-errors.js';
export type { JsonRpcId } from './jsonrpc/messages.js';
export { type ByteSource, type StreamedEncoding, StreamedString } from './jsonrpc/streamed.js';
export type { AuthInfo, Transport } from './jsonrpc/transport.js';
export {
  APP_MIME_TYPE,
  type AppResourceSettings,
  type AppToolLink,
  type AppToolVisibility,
} from './protocol/apps.js';
export type { AskOptions, RequestContext, TaskStarter } from './protocol/context.js';
export { CapabilityError, ToolInputError } from './protocol/errors.js';
export { Extension, type ExtensionSettings, type Extensions } from './protocol/extensions.js';
export type { RequestStateOptions } from './protocol/request-state.js';
export type { Session } from './protocol/server-definition.js';
export type { CacheHints } from './protocol/stateless.js';
export type { TaskManagerOptions } from './protocol/tasks/manager.js';
export { MemoryTaskStore, type TaskStore } from './protocol/tasks/store.js';
export type {
  CallToolResult,
  ContentBlock,
  GetPromptResult,
  Icon,
  Implementation,
  JsonSchema,
  LoggingLevel,
  Prompt,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceTemplate,
  ServerCapabilities,
  Tool,
  ToolAnnotations,
} from './protocol/types.js';
export type { AppResourceDefinition } from './server/apps.js';
export type { AuthorizationOptions } from './server/authorization.js';
export type { HttpHandlerOptions, ListenOptions } from './server/http.js';
export type { PromptDefinition, PromptHandler } from './server/prompts.js';
export type {
  Completer,
  ReadOutput,
  ResourcePage,
  ResourceReader,
  ResourceTemplateDefinition,
  StreamedContents,
  TemplateReader,
} from './server/resources.js';
export { McpServer, type McpServerOptions, type Registration } from './server/server.js';
export type { ServeStdioOptions } from './server/stdio-process.js';
export { fileSource, fileSources, streamedFile } from './server/streamed-file.js';
export type {
  StreamedTextContent,
  ToolArguments,
  ToolDefinition,
  ToolHandler,
  ToolOutput,
} from './server/tools.js';
export { type TemplateValue, UriTemplate } from './server/uri-template.js';
export type { EventStore } from './transport/http/event-store.js';
export type { HttpListener } from './transport/http/listen.js';
export type { FleetOptions } from './transport/http/server-handler.js';
export type { SessionStore } from './transport/http/session-store.js';
