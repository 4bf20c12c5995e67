// `mcpwire serve everything`: every fixture the official conformance suite's server scenarios use, plus
// the classic demo tools of the reference everything server. One McpServer serves any number of sessions
// (stdio, or Streamable HTTP with many clients).

import type { RequestStateOptions } from '../../protocol/request-state.js';
import { McpServer } from '../../server/server.js';
import { registerConformanceTools } from './conformance-tools.js';
import { registerDemoTools } from './demo-tools.js';
import { registerExtensionTools, registerTaskFixtures } from './extension-tools.js';
import { registerInputRequiredTools } from './input-required-tools.js';
import { type ResourceOptions, registerPrompts, registerResources } from './resources-prompts.js';
import { registerStatelessDiagnostics } from './stateless-diagnostics.js';

export interface EverythingServerOptions extends ResourceOptions {
  version?: string;
  /** The keys that sign 2026-07-28 requestState (a fleet shares them, so any instance takes any round). */
  requestState?: RequestStateOptions;
}

export function createEverythingServer(options: EverythingServerOptions = {}): McpServer {
  const server = new McpServer({
    name: 'mcpwire-everything',
    title: 'mcpwire everything',
    version: options.version ?? '0.0.0',
    requestState: options.requestState,
    instructions:
      'A test and demo server: tools for every kind of content, logging, progress, sampling and elicitation; static, binary, templated and changing resources; prompts with arguments and completion.',
  });
  registerConformanceTools(server);
  registerInputRequiredTools(server);
  registerStatelessDiagnostics(server);
  registerDemoTools(server);
  registerExtensionTools(server);
  registerTaskFixtures(server);
  registerResources(server, options);
  registerPrompts(server);
  return server;
}
