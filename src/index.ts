// The public API of mcpwire: named exports only, chosen one by one and pinned by
// test/architecture/public-api.test.ts, so that any change to this list is deliberate. The JSON-RPC
// engine on its own is also at mcpwire/jsonrpc (src/jsonrpc.ts).

// The client, and the host over many servers.
export {
  type CallOptions,
  type ClientHandlerContext,
  type ListName,
  McpClient,
  type McpClientOptions,
  UnsupportedVersionError,
} from './client/client.js';
export type { EraName } from './client/eras/era.js';
export {
  ConfigError,
  type HostConfig,
  isRemote,
  loadConfig,
  parseConfig,
  type RemoteServerConfig,
  type ServerConfig,
  type StdioServerConfig,
} from './host/config.js';
export {
  type HostEvent,
  type HostOptions,
  McpHost,
  type QualifiedPrompt,
  type QualifiedResource,
  type QualifiedTool,
  type RestartPolicy,
  RoutingError,
  type ServerState,
  type ServerStatus,
} from './host/host.js';
// Errors and the JSON-RPC engine.
export {
  abortCancellation,
  type CancellationStrategy,
  notifyCancellation,
} from './jsonrpc/cancellation.js';
export {
  Connection,
  type ConnectionOptions,
  type ConnectionProblem,
  type Progress,
  type RequestOptions,
} from './jsonrpc/connection.js';
export { ErrorCode } from './jsonrpc/error-codes.js';
export {
  type CloseReason,
  ConnectionClosedError,
  JsonRpcError,
  RequestCancelledError,
  RequestTimeoutError,
} from './jsonrpc/errors.js';
export { McpwireError, type McpwireErrorCode } from './jsonrpc/local-errors.js';
export type { JsonRpcId, JsonRpcMessage, JsonRpcPayload } from './jsonrpc/messages.js';
export { type ByteSource, type StreamedEncoding, StreamedString } from './jsonrpc/streamed.js';
export type {
  AuthInfo,
  MessageInfo,
  SendOptions,
  Transport,
  TransportHandlers,
} from './jsonrpc/transport.js';
export {
  APP_MIME_TYPE,
  type AppResourceSettings,
  type AppToolLink,
  type AppToolVisibility,
  appLinkOf,
} from './protocol/apps.js';
// The protocol's shapes.
export type { AskOptions, RequestContext, TaskStarter } from './protocol/context.js';
export { CapabilityError, ToolInputError } from './protocol/errors.js';
export { Extension, type ExtensionSettings, type Extensions } from './protocol/extensions.js';
export { Method, Notification } from './protocol/methods.js';
export type { RequestStateOptions } from './protocol/request-state.js';
export type { Session } from './protocol/server-definition.js';
export { type CacheHints, LATEST_STATELESS_VERSION, STATELESS_VERSIONS } from './protocol/stateless.js';
export { TaskManager, type TaskManagerOptions } from './protocol/tasks/manager.js';
export { MemoryTaskStore, type TaskStore } from './protocol/tasks/store.js';
export type { Task, TaskInputRequest, TaskRecord, TaskStatus } from './protocol/tasks/task.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CallToolRequestParams,
  CallToolResult,
  ClientCapabilities,
  CompleteRequestParams,
  CompleteResult,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  Cursor,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestURLParams,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  InitializeRequestParams,
  InitializeResult,
  JsonSchema,
  ListRootsResult,
  LoggingLevel,
  LoggingMessageNotificationParams,
  Meta,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  ProtocolVersion,
  ReadResourceResult,
  Resource,
  ResourceContents,
  ResourceLink,
  ResourceTemplate,
  ResourceTemplateReference,
  Role,
  Root,
  SamplingMessage,
  ServerCapabilities,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from './protocol/types.js';
export { HANDSHAKE_VERSIONS, LATEST_HANDSHAKE_VERSION } from './protocol/versions.js';
export type { AppResourceDefinition } from './server/apps.js';
// The server.
export { type AuthorizationOptions, resourceServer } from './server/authorization.js';
export { createHttpHandler, type HttpHandlerOptions, type ListenOptions, listenHttp } from './server/http.js';
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
export { InMemoryBus, InMemoryBusHub, type MessageBus } from './transport/bus.js';
// Transports.
export { ChildProcessTransport, type ChildProcessTransportOptions } from './transport/child-process.js';
export { formatChallenge, parseBearerChallenge } from './transport/http/auth/challenge.js';
export type { ClientKey } from './transport/http/auth/client-authentication.js';
export type { CrossAppAccess } from './transport/http/auth/cross-app-access.js';
export { defaultTokenFile, FileTokenStore } from './transport/http/auth/file-token-store.js';
export {
  type IntrospectionVerifierOptions,
  introspectionVerifier,
} from './transport/http/auth/introspection-verifier.js';
export { type JwtVerifierOptions, jwtVerifier } from './transport/http/auth/jwt-verifier.js';
export {
  type AuthorizationServerMetadata,
  discoverIssuerMetadata,
  MetadataError,
} from './transport/http/auth/metadata.js';
export { protectedResourceMetadataHandler } from './transport/http/auth/metadata-endpoint.js';
export {
  AuthorizationError,
  type AuthRefusal,
  canonicalResource,
  type HttpAuthorization,
  LoginRequiredError,
  OAuthClient,
  type OAuthClientOptions,
} from './transport/http/auth/oauth-client.js';
export {
  type AuthVerdict,
  InvalidTokenError,
  type Refusal,
  ResourceServer,
  type ResourceServerOptions,
  type TokenVerifier,
} from './transport/http/auth/resource-server.js';
export {
  type AuthRecord,
  InMemoryTokenStore,
  type StoredClient,
  type StoredTokens,
  type TokenStore,
} from './transport/http/auth/token-store.js';
export type { WorkloadIdentity } from './transport/http/auth/workload-identity.js';
export { HttpClientTransport, type HttpClientTransportOptions } from './transport/http/client-transport.js';
export {
  type EventStore,
  InMemoryEventStore,
  type InMemoryEventStoreOptions,
} from './transport/http/event-store.js';
export { FallbackHttpTransport } from './transport/http/fallback-transport.js';
export {
  LegacySseClientTransport,
  type LegacySseTransportOptions,
} from './transport/http/legacy-sse-transport.js';
export type { HttpListener } from './transport/http/listen.js';
export type { OriginPolicy } from './transport/http/security.js';
export type { FleetOptions, HttpHandler } from './transport/http/server-handler.js';
export {
  InMemorySessionStore,
  type SessionRecord,
  type SessionStore,
} from './transport/http/session-store.js';
export { createInMemoryPair, InMemoryTransport } from './transport/memory.js';
export { type RedisFleet, type RedisFleetOptions, redisFleet } from './transport/redis/fleet.js';
export {
  type ExponentialRetryOptions,
  exponentialRetry,
  fixedRetry,
  neverRetry,
  type RetryPolicy,
} from './transport/retry.js';
export { StdioServerTransport, type StdioServerTransportOptions } from './transport/stdio.js';
export { StreamTransport, type StreamTransportOptions } from './transport/stream.js';
export { type TapObserver, tapTransport } from './transport/tap.js';
