// `mcpwire login URL`: logs in to a remote MCP server that wants OAuth, and keeps the tokens for every
// later command on that URL (~/.mcpwire/auth.json, mode 0600). The browser is sent to the authorization
// server; it comes back to a one-shot listener on 127.0.0.1 (a random port, RFC 8252's loopback
// redirect), which takes exactly one answer, checked by the OAuth client for its state and issuer.

import type { JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { McpClient } from '../../client/client.js';
import { ConnectionClosedError } from '../../jsonrpc/errors.js';
import { type ClientKey, readClientKey } from '../../transport/http/auth/client-authentication.js';
import { type CrossAppAccess, crossAppAccessFromStored } from '../../transport/http/auth/cross-app-access.js';
import { OAuthClient } from '../../transport/http/auth/oauth-client.js';
import {
  type WorkloadIdentity,
  workloadIdentityFromFile,
} from '../../transport/http/auth/workload-identity.js';
import { HttpClientTransport } from '../../transport/http/client-transport.js';
import { openBrowser } from '../open-browser.js';
import { packageVersion } from '../package-info.js';
import { parseRemote, ServerFailure, tokenStore } from '../target.js';
import { UsageError } from '../usage.js';
import { report } from './common.js';

export const usage = `Usage: mcpwire login URL [options]

Logs in to a remote MCP server that needs OAuth authorization, and keeps its tokens for every later
command given --url URL (or a configuration entry with that "url"). They are refreshed as they expire.

Options:
  --scope SCOPE            the scope to ask for (default: what the server names)
  --client-id ID           a client registered beforehand at the authorization server
  --client-secret SECRET   its secret, for a confidential client
  --client-metadata-url URL  this client's metadata document (used when the authorization server supports it)
  --private-key FILE       the client's private key (PEM or JWK file): it authenticates with a signed
                           assertion (private_key_jwt) instead of a secret
  --key-id KID             the key's id at the authorization server (default: the JWK's kid)
  --signing-alg ALG        the assertion's algorithm (default: what the key implies, e.g. ES256, RS256, EdDSA)
  --client-credentials     log in as a machine (client credentials grant), with --client-id and
                           --client-secret or --private-key; later commands take new tokens by themselves
  --workload-token FILE    log in as a workload (SEP-1933) with the JWT its platform keeps in FILE (a
                           Kubernetes projected service account token, a SPIFFE JWT-SVID): presented as a
                           JWT bearer grant, no registration; later commands read FILE again for each
                           new token, so the platform may rotate it
  --id-token FILE          log in through the enterprise's identity provider (cross-app access, SEP-990)
                           with the ID token of your single sign-on, kept in FILE (read again for each
                           new token): exchanged there for an ID-JAG, no browser. With --idp-client-id,
                           --idp-issuer URL or --idp-token-endpoint URL, and --idp-client-secret for a
                           confidential client; --client-id and --client-secret for this client at the
                           server's authorization server (else it registers, where it can)
  --header 'Name: value'   a header for every request to the server (repeatable)
  --no-open                print the login URL instead of opening a browser
  --timeout MS             how long to wait for the login in the browser (default 300000)

Tokens (and a client's secret or private key) are stored in ~/.mcpwire/auth.json (or $MCPWIRE_AUTH_FILE),
readable by you alone.
"mcpwire logout URL" forgets them.`;

const OPTIONS = {
  scope: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  'client-metadata-url': { type: 'string' },
  'client-credentials': { type: 'boolean' },
  'workload-token': { type: 'string' },
  'id-token': { type: 'string' },
  'idp-issuer': { type: 'string' },
  'idp-token-endpoint': { type: 'string' },
  'idp-client-id': { type: 'string' },
  'idp-client-secret': { type: 'string' },
  'private-key': { type: 'string' },
  'key-id': { type: 'string' },
  'signing-alg': { type: 'string' },
  header: { type: 'string', multiple: true },
  'no-open': { type: 'boolean' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function run(argv: string[]): Promise<number> {
  try {
    return await login(argv);
  } catch (error) {
    return report(error);
  }
}

async function login(argv: string[]): Promise<number> {
  const { values, positionals } = parseLoginArgs(argv);
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  if (positionals.length !== 1) {
    throw new UsageError('which server? e.g. mcpwire login https://mcp.example.com/mcp');
  }
  const { url, headers } = parseRemote(positionals[0]!, values.header ?? []);
  const timeout = values.timeout === undefined ? 300_000 : Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0) {
    throw new UsageError(`--timeout takes milliseconds; got "${values.timeout}"`);
  }
  const machine = values['client-credentials'] === true;
  const workloadFile = values['workload-token'];
  if (
    workloadFile !== undefined &&
    (machine || values['client-secret'] || values['private-key'] || values['client-metadata-url'])
  ) {
    throw new UsageError(
      '--workload-token is a login of its own: no --client-credentials, --client-secret, --private-key or --client-metadata-url',
    );
  }
  const workloadIdentity =
    workloadFile === undefined ? undefined : readWorkloadFile(workloadFile, values['client-id']);
  if (machine && (!values['client-id'] || (!values['client-secret'] && !values['private-key']))) {
    throw new UsageError('--client-credentials needs --client-id, and --client-secret or --private-key');
  }
  if (!values['private-key'] && (values['key-id'] || values['signing-alg'])) {
    throw new UsageError('--key-id and --signing-alg go with --private-key FILE');
  }
  const clientKey = values['private-key']
    ? readKeyFile(values['private-key'], values['key-id'], values['signing-alg'])
    : undefined;

  const crossAppAccess = crossAppOptions(values, machine || workloadIdentity !== undefined);
  const callback =
    machine || workloadIdentity || crossAppAccess ? undefined : await loopbackCallback(timeout);
  try {
    const oauth = new OAuthClient({
      server: url,
      store: tokenStore(),
      grant: machine ? 'client_credentials' : crossAppAccess ? undefined : 'authorization_code',
      clientId: workloadIdentity ? undefined : values['client-id'],
      clientSecret: values['client-secret'],
      clientKey,
      clientMetadataUrl: values['client-metadata-url'],
      workloadIdentity,
      crossAppAccess,
      scope: values.scope,
      redirectUri: callback?.redirectUri,
      authorize: callback
        ? async (authorizationUrl) => {
            process.stderr.write(
              `Log in at this address (it was opened in your browser if one was found):\n  ${authorizationUrl.href}\n`,
            );
            if (!values['no-open']) openBrowser(authorizationUrl.href);
            return callback.answer;
          }
        : undefined,
    });
    await oauth.forgetTokens();
    const client = new McpClient({ name: 'mcpwire-cli', version: packageVersion() });
    try {
      await client.connect(new HttpClientTransport(url, { headers, authorization: oauth }), {
        timeout: timeout + 30_000,
      });
    } catch (error) {
      if (error instanceof ConnectionClosedError) {
        throw new ServerFailure(error.reason.message, error.reason.hint);
      }
      throw error;
    } finally {
      await client.close().catch(() => {});
    }
    const record = await oauth.stored();
    if (!record?.tokens) {
      process.stderr.write(`${url} did not ask for authorization: there is nothing to log in to.\n`);
      return 0;
    }
    const scope = record.tokens.scope ? ` with the scope "${record.tokens.scope}"` : '';
    process.stderr.write(`Logged in to ${url} at ${record.issuer}${scope}.\n`);
    return 0;
  } finally {
    callback?.close();
  }
}

function parseLoginArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message, 'Run "mcpwire login --help" for the options.');
  }
}

/** The --private-key file: a PEM, or a JWK (JSON); read here so that a bad file is a usage error. */
function readKeyFile(file: string, keyId: string | undefined, algorithm: string | undefined): ClientKey {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--private-key ${file} cannot be read: ${(error as Error).message}`);
  }
  let privateKey: string | JsonWebKey = text;
  if (text.trimStart().startsWith('{')) {
    try {
      privateKey = JSON.parse(text) as JsonWebKey;
    } catch {
      throw new UsageError(`--private-key ${file} looks like JSON but is not: give a PEM or a JWK file`);
    }
  }
  const key: ClientKey = { privateKey, ...(keyId ? { keyId } : {}), ...(algorithm ? { algorithm } : {}) };
  try {
    readClientKey(key);
  } catch (error) {
    throw new UsageError(`--private-key ${file}: ${(error as Error).message}`);
  }
  return key;
}

/** The --id-token and --idp-* options as cross-app access, or undefined without --id-token (checked for sense). */
function crossAppOptions(
  values: ReturnType<typeof parseLoginArgs>['values'],
  otherGrant: boolean,
): CrossAppAccess | undefined {
  const file = values['id-token'];
  const idp = ['idp-issuer', 'idp-token-endpoint', 'idp-client-id', 'idp-client-secret'] as const;
  if (file === undefined) {
    const stray = idp.find((name) => values[name] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with --id-token FILE`);
    return undefined;
  }
  if (otherGrant) {
    throw new UsageError('--id-token is a login of its own: no --client-credentials or --workload-token');
  }
  const clientId = values['idp-client-id'];
  const issuer = values['idp-issuer'];
  const endpoint = values['idp-token-endpoint'];
  if (!clientId || (issuer === undefined) === (endpoint === undefined)) {
    throw new UsageError(
      '--id-token needs --idp-client-id, and --idp-issuer URL or --idp-token-endpoint URL',
    );
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`--id-token ${file} cannot be read: ${(error as Error).message}`);
  }
  if (text.split('.').length !== 3) throw new UsageError(`--id-token ${file} does not hold a JWT`);
  return crossAppAccessFromStored({
    id_token_file: path.resolve(file),
    ...(issuer ? { idp_issuer: issuer } : {}),
    ...(endpoint ? { idp_token_endpoint: endpoint } : {}),
    idp_client_id: clientId,
    ...(values['idp-client-secret'] ? { idp_client_secret: values['idp-client-secret'] } : {}),
  });
}

/** The workload's JWT file, checked now (readable, a JWT); kept by its absolute path for later commands. */
function readWorkloadFile(file: string, clientId: string | undefined): WorkloadIdentity {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    throw new UsageError(`--workload-token ${file} cannot be read: ${(error as Error).message}`);
  }
  if (text.split('.').length !== 3) {
    throw new UsageError(`--workload-token ${file} does not hold a JWT`);
  }
  return workloadIdentityFromFile(path.resolve(file), clientId);
}

interface Callback {
  redirectUri: string;
  /** The URL the browser came back to. */
  answer: Promise<URL>;
  close(): void;
}

/** A listener on 127.0.0.1 for the browser's one redirect back. */
async function loopbackCallback(timeout: number): Promise<Callback> {
  let resolve!: (url: URL) => void;
  let reject!: (error: Error) => void;
  const answer = new Promise<URL>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  answer.catch(() => {});
  let done = false;
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || done) {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found\n');
      return;
    }
    done = true;
    const failed = url.searchParams.get('error');
    response
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(
        failed
          ? '<!doctype html><title>mcpwire</title><p>The login did not complete. The terminal says why.</p>'
          : '<!doctype html><title>mcpwire</title><p>Logged in. You can close this page and go back to the terminal.</p>',
      );
    const address = server.address() as AddressInfo;
    resolve(new URL(`http://127.0.0.1:${address.port}${request.url ?? '/'}`));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const timer = setTimeout(
    () =>
      reject(
        new UsageError(
          `no login came back within ${timeout} ms`,
          'Run mcpwire login again, or raise --timeout.',
        ),
      ),
    timeout,
  );
  const { port } = server.address() as AddressInfo;
  return {
    redirectUri: `http://127.0.0.1:${port}/callback`,
    answer,
    close: () => {
      clearTimeout(timer);
      server.closeAllConnections();
      server.close();
    },
  };
}
