// MCP over Streamable HTTP, ready to mount: the transport layer's endpoint (which knows HTTP and
// sessions) bound to MCP (which says what opens a session and what stands alone). McpServer.serveHttp()
// uses these; a user mounting mcpwire in an HTTP server of their own calls createHttpHandler.

import type { Transport } from '../jsonrpc/transport.js';
import { type McpHttpBindingOptions, mcpHttpBinding } from '../protocol/http/binding.js';
import type { RequestStateOptions } from '../protocol/request-state.js';
import { ResourceServer } from '../transport/http/auth/resource-server.js';
import type { HttpBinding } from '../transport/http/binding.js';
import type { ListenOptions as EndpointListenOptions, HttpListener } from '../transport/http/listen.js';
import {
  createHttpEndpoint,
  type HttpHandlerOptions as EndpointOptions,
  type HttpHandler,
} from '../transport/http/server-handler.js';
import { type AuthorizationOptions, resourceServer } from './authorization.js';

export interface HttpHandlerOptions
  extends Omit<EndpointOptions, 'binding' | 'authorization'>,
    McpHttpBindingOptions {
  /** The protocol binding; MCP's unless given (then sessionVersions and paramHeaders are not used). */
  binding?: HttpBinding;
  /**
   * OAuth 2.1 authorization: every request needs a bearer token from a trusted issuer, meant for this
   * server, with the scopes its method and tool need (see AuthorizationOptions). The caller reaches
   * handlers as `context.auth`. With createHttpHandler, `resource` must be given, and the metadata
   * (protectedResourceMetadataHandler) mounted at `resourceServer.metadataPath`.
   */
  authorization?: AuthorizationOptions | ResourceServer;
}

export interface ListenOptions
  extends Omit<EndpointListenOptions, 'binding' | 'authorization'>,
    HttpHandlerOptions {
  /**
   * Serve as one instance of a fleet on this Redis (`redis://host:6379`): sessions, SSE events and the
   * messages between instances are kept there (McpServer.serveHttp; node-redis is loaded only then).
   */
  redis?: string;
  /**
   * The keys that sign requestState in this listener's input_required round trips (McpServer.serveHttp),
   * instead of the server's own (McpServerOptions.requestState): every instance of a fleet needs the
   * same, or a round answered on another instance is refused.
   */
  requestState?: RequestStateOptions;
}

function bound<T extends HttpHandlerOptions>(
  options: T,
): Omit<T, 'authorization'> & { binding: HttpBinding } {
  const { authorization: _, ...rest } = options;
  return { ...rest, binding: options.binding ?? mcpHttpBinding(options) };
}

function authorizationFor(
  options: AuthorizationOptions | ResourceServer | undefined,
  endpointUrl?: string,
): ResourceServer | undefined {
  if (options === undefined || options instanceof ResourceServer) return options;
  return resourceServer(options, endpointUrl);
}

/**
 * A Node request handler that serves MCP at whatever path it is mounted. `connect` is called with the
 * transport of each new session or standalone request (for an McpServer: `(t) => server.connect(t)`).
 */
export function createHttpHandler(
  connect: (transport: Transport) => void,
  options: HttpHandlerOptions = {},
): HttpHandler {
  return createHttpEndpoint(connect, {
    ...bound(options),
    authorization: authorizationFor(options.authorization),
  });
}

/** Runs MCP's Streamable HTTP endpoint on a Node HTTP server of its own (127.0.0.1, a free port). */
export async function listenHttp(
  connect: (transport: Transport) => void,
  options: ListenOptions = {},
): Promise<HttpListener> {
  const { listenHttpEndpoint } = await import('../transport/http/listen.js');
  const { authorization } = options;
  return listenHttpEndpoint(connect, {
    ...bound(options),
    authorization: authorization && ((url: string) => authorizationFor(authorization, url)!),
  });
}
