// The client the conformance suite drives (`conformance client --command "node test/conformance/client.mjs"`):
// it is started with the scenario's server URL, connects with mcpwire's client over Streamable HTTP,
// lists the tools and calls each one with arguments made from its schema, answering elicitations by
// accepting the form as shown (so schema defaults apply) and sampling with a fixed message.
//
// Every connection is authorized by an OAuthClient, which does nothing until a server refuses a request:
// the scenarios without OAuth never see it. In the auth scenarios the suite's mock authorization server
// redirects at once, so the "browser" is a GET that does not follow the redirect and hands its Location
// back. The suite names the scenario in MCP_CONFORMANCE_SCENARIO and, for a client registered beforehand,
// gives its credentials in MCP_CONFORMANCE_CONTEXT (JSON: client_id, client_secret, or private_key_pem and
// signing_algorithm for private_key_jwt); the client-credentials scenarios take a token for the machine
// with those credentials. For cross-app access the context also holds the enterprise IdP's ID token and
// where to exchange it (idp_id_token, idp_issuer, idp_token_endpoint, idp_client_id); for workload identity
// federation, the workload's JWT (valid_jwt), presented with no client id.

import { HttpClientTransport, InMemoryTokenStore, McpClient, OAuthClient } from '../../dist/index.js';

const url = process.argv[2];
if (!url) {
  console.error('usage: client.mjs SERVER_URL');
  process.exit(2);
}
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = process.env.MCP_CONFORMANCE_CONTEXT ? JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) : {};

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

/**
 * The calls to make: the ones the scenario names in its context (toolCalls, with exact arguments), else
 * each listed tool with arguments made from its schema. A tool that echoes a schema (json_schema_echo)
 * gets the inputSchema of the tool listed first, exactly as mcpwire's client received it, so that the
 * scenario sees which keywords survived.
 */
function toolCalls(tools) {
  if (Array.isArray(context.toolCalls))
    return context.toolCalls.map((c) => ({ name: c.name, args: c.arguments ?? {} }));
  const echo = tools.find((tool) => tool.name === 'json_schema_echo');
  const focal = tools.find((tool) => tool !== echo);
  return tools.map((tool) =>
    tool === echo && focal
      ? { name: tool.name, args: { schema: focal.inputSchema } }
      : { name: tool.name, args: argumentsFor(tool.inputSchema) },
  );
}

/** The browser: the authorization endpoint answers with a redirect to the redirect URI, which is the answer. */
async function authorize(authorizationUrl) {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  await response.body?.cancel();
  const location = response.headers.get('location');
  if (!location)
    throw new Error(`the authorization endpoint answered HTTP ${response.status} without a redirect`);
  return new URL(location, authorizationUrl);
}

const machine = scenario.startsWith('auth/client-credentials');
const oauth = new OAuthClient({
  server: url,
  store: new InMemoryTokenStore(),
  grant: machine ? 'client_credentials' : 'authorization_code',
  clientId: context.client_id,
  clientSecret: context.client_secret,
  clientKey: context.private_key_pem
    ? { privateKey: context.private_key_pem, algorithm: context.signing_algorithm }
    : undefined,
  crossAppAccess: context.idp_id_token
    ? {
        idToken: context.idp_id_token,
        idpIssuer: context.idp_issuer,
        idpTokenEndpoint: context.idp_token_endpoint,
        idpClientId: context.idp_client_id,
      }
    : undefined,
  workloadIdentity: context.valid_jwt ? { assertion: context.valid_jwt } : undefined,
  clientName: 'mcpwire-conformance-client',
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  redirectUri: 'http://127.0.0.1:53682/callback',
  authorize,
});

const client = new McpClient({
  name: 'mcpwire-conformance-client',
  version: '1.0.0',
  // The suite runs a requirement set's scenarios all at once, so on two cores the server/discover probe
  // can take longer than its default 5 s; falling back to initialize then would test the wrong era.
  discoverTimeout: 20_000,
  onElicitation: async () => ({ action: 'accept', content: {} }),
  onSampling: async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'A response from the mcpwire conformance client' },
    model: 'mcpwire-test',
    stopReason: 'endTurn',
  }),
});

try {
  await client.connect(new HttpClientTransport(url, { authorization: oauth }), { timeout: 20_000 });
  const tools = client.serverCapabilities?.tools ? await client.listAllTools() : [];
  for (const { name, args } of toolCalls(tools)) {
    const result = await client.callTool(name, args, { timeout: 20_000 });
    console.error(`${name}: ${JSON.stringify(result).slice(0, 200)}`);
  }
  await client.close();
  process.exit(0);
} catch (error) {
  console.error(`conformance client failed: ${error instanceof Error ? error.message : error}`);
  await client.close().catch(() => {});
  process.exit(1);
}
