// `mcpwire serve fs`: the seed's local data source, a filesystem server built on mcpwire's framework.

import { Notification } from '../../protocol/methods.js';
import { McpServer } from '../../server/server.js';
import { DEFAULT_MAX_MESSAGE_SIZE } from '../../transport/framing/decoder.js';
import { registerBrowseTools } from './browse-tools.js';
import type { FsOptions } from './context.js';
import type { AfterCheck } from './directory.js';
import { registerReadTools } from './read-tools.js';
import { registerFileResources } from './resources.js';
import { forgetClientRoots, Roots, resolveRootDirectories } from './roots.js';
import { registerWriteTools } from './write-tools.js';

export interface FsServerOptions {
  /** Allowed directories (the current directory when empty). */
  roots?: string[];
  /** Register the tools that change files. */
  write?: boolean;
  maxMessageSize?: number;
  version?: string;
  /** For tests only: runs between the check of each directory and its use, where a test makes a race. */
  afterCheck?: AfterCheck;
}

export async function createFsServer(options: FsServerOptions = {}): Promise<McpServer> {
  const directories = await resolveRootDirectories(options.roots?.length ? options.roots : [process.cwd()]);
  const fsOptions: FsOptions = {
    roots: new Roots(directories),
    write: options.write ?? false,
    maxMessageSize: options.maxMessageSize ?? DEFAULT_MAX_MESSAGE_SIZE,
    afterCheck: options.afterCheck,
  };
  const server = new McpServer({
    name: 'mcpwire-fs',
    title: 'mcpwire filesystem',
    version: options.version ?? '0.0.0',
    instructions: `Reads${fsOptions.write ? ' and writes' : ''} files under these directories: ${directories.join(', ')}. Relative paths start at the first one. Every file is also a resource: file:///{path}.`,
  });
  registerReadTools(server, fsOptions);
  registerBrowseTools(server, fsOptions);
  if (fsOptions.write) registerWriteTools(server, fsOptions);
  registerFileResources(server, fsOptions);
  // The client's roots replace the configured ones; when they change, ask again.
  server.onClientNotification(Notification.RootsListChanged, (_params, session) =>
    forgetClientRoots(session.state),
  );
  return server;
}
