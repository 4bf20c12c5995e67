// The client the conformance suite drives (`conformance client --command "node test/conformance/client.mjs"`):
// it is started with the scenario's server URL, connects with mcpwire's client over Streamable HTTP,
// lists the tools and calls each one with arguments made from its schema, answering elicitations by
// accepting the form as shown (so schema defaults apply) and sampling with a fixed message.

import { HttpClientTransport, McpClient } from '../../dist/index.js';

const url = process.argv[2];
if (!url) {
  console.error('usage: client.mjs SERVER_URL');
  process.exit(2);
}

function sampleValue(schema) {
  switch (schema?.type) {
    case 'number':
    case 'integer':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return argumentsFor(schema);
    default:
      return schema?.enum?.[0] ?? 'test';
  }
}

function argumentsFor(schema) {
  const args = {};
  for (const [name, property] of Object.entries(schema?.properties ?? {})) args[name] = sampleValue(property);
  return args;
}

const client = new McpClient({
  name: 'mcpwire-conformance-client',
  version: '1.0.0',
  onElicitation: async () => ({ action: 'accept', content: {} }),
  onSampling: async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A response from the mcpwire conformance client' },
    model: 'mcpwire-test',
    stopReason: 'endTurn',
  }),
});

try {
  await client.connect(new HttpClientTransport(url), { timeout: 20_000 });
  const tools = client.serverCapabilities?.tools ? await client.listAllTools() : [];
  for (const tool of tools) {
    const result = await client.callTool(tool.name, argumentsFor(tool.inputSchema), { timeout: 20_000 });
    console.error(`${tool.name}: ${JSON.stringify(result).slice(0, 200)}`);
  }
  await client.close();
  process.exit(0);
} catch (error) {
  console.error(`conformance client failed: ${error instanceof Error ? error.message : error}`);
  await client.close().catch(() => {});
  process.exit(1);
}
