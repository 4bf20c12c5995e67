// The official SDK's Client over stdio to a command, with every message it sends and receives recorded,
// so interop tests can check the wire against the specification's schema afterwards.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface RecordedSdkClient {
  client: Client;
  sent: JSONRPCMessage[];
  received: JSONRPCMessage[];
}

export async function connectRecordedSdkClient(options: {
  command: string;
  args: string[];
  cwd: string;
}): Promise<RecordedSdkClient> {
  const sent: JSONRPCMessage[] = [];
  const received: JSONRPCMessage[] = [];
  const transport = new StdioClientTransport({ ...options, stderr: 'pipe' });
  // Recorded before the SDK installs its own handler, which calls this one first.
  transport.onmessage = (message) => {
    received.push(message);
  };
  const send = transport.send.bind(transport);
  transport.send = (message: JSONRPCMessage) => {
    sent.push(message);
    return send(message);
  };
  const client = new Client({ name: 'sdk-interop', version: '1.0.0' }, { capabilities: {} });
  await client.connect(transport);
  return { client, sent, received };
}
