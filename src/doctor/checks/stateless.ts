// The stateless revision (2026-07-28): discovery, the per-request envelope, and result shapes. A server
// that only speaks the handshake era skips these.

import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { type Check, ensure, errorOf, skip } from '../check.js';
import { DOCTOR_CLIENT, type Peer, PeerRefused } from '../peer.js';
import { validateAgainst } from '../spec-schema.js';

const REVISION = '2026-07-28';
const SPEC = `MCP ${REVISION}`;

/** The envelope of every request of the revision the doctor sends. */
export const STATELESS_META = {
  'io.modelcontextprotocol/protocolVersion': REVISION,
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': DOCTOR_CLIENT,
};

/**
 * The discover result, or undefined when the server does not speak the revision: it answers with an
 * error, or (over HTTP) refuses the POST, as a server of the handshake era does ("not initialized").
 */
export async function discover(peer: Peer): Promise<Record<string, unknown> | undefined> {
  let response: Record<string, unknown>;
  try {
    response = await peer.request('server/discover', { _meta: STATELESS_META });
  } catch (error) {
    if (error instanceof PeerRefused) return undefined;
    throw error;
  }
  const result = response.result as Record<string, unknown> | undefined;
  const versions = result?.supportedVersions;
  return Array.isArray(versions) && versions.includes(REVISION) ? result : undefined;
}

export const statelessChecks: Check[] = [
  {
    id: 'stateless-discover',
    title: `server/discover answers without a handshake (${REVISION})`,
    rule: {
      source: `${SPEC} server/discover`,
      text: 'server/discover returns the supported versions, capabilities and identity of the server.',
    },
    hint: 'Answer server/discover with {resultType, supportedVersions, capabilities, ttlMs, cacheScope, _meta: {serverInfo}}.',
    async run(peer) {
      const result = await discover(peer);
      if (!result)
        return skip(`the server does not speak ${REVISION} (it only offers the initialize handshake)`);
      const problems = await validateAgainst(REVISION, 'DiscoverResult', result);
      ensure(problems.length === 0, `the discover result is not valid: ${problems.join('; ')}`);
      return undefined;
    },
  },
  {
    id: 'stateless-envelope',
    title: 'a request without its envelope gets -32602, an unknown version -32022',
    rule: {
      source: `${SPEC} basic/versioning`,
      text: 'Every request carries protocolVersion and clientCapabilities in _meta; an unsupported version is answered with -32022 and the supported versions.',
    },
    hint: 'Check the _meta envelope before dispatching: -32602 when a key is missing, -32022 with data {supported, requested} for an unknown version.',
    async run(peer) {
      if (!(await discover(peer))) return skip(`the server does not speak ${REVISION}`);
      const missing = await peer.request('tools/list', {
        _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION },
      });
      ensure(
        errorOf(missing, '-32602 for a missing clientCapabilities').code === ErrorCode.InvalidParams,
        'a missing clientCapabilities did not get -32602',
      );
      const unknown = await peer.request('tools/list', {
        _meta: { ...STATELESS_META, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' },
      });
      const error = errorOf(unknown, '-32022 for an unsupported version') as {
        code: number;
        data?: { supported?: unknown };
      };
      ensure(
        error.code === ErrorCode.UnsupportedProtocolVersion,
        `an unsupported version got ${error.code}, not -32022`,
      );
      ensure(
        Array.isArray(error.data?.supported),
        '-32022 must list the supported versions in data.supported',
      );
      return undefined;
    },
  },
  {
    id: 'stateless-results',
    title: `results carry resultType and cache hints (${REVISION})`,
    rule: {
      source: `${SPEC} schema`,
      text: 'Every result has resultType; list and read results have ttlMs and cacheScope.',
    },
    hint: 'Add resultType "complete" to every result, and ttlMs and cacheScope to list and read results.',
    async run(peer) {
      const discovered = await discover(peer);
      if (!discovered) return skip(`the server does not speak ${REVISION}`);
      const capabilities = (discovered.capabilities ?? {}) as Record<string, unknown>;
      const lists: Array<[string, string, string]> = [];
      if (capabilities.tools) lists.push(['tools/list', 'ListToolsResult', 'tools']);
      if (capabilities.resources) lists.push(['resources/list', 'ListResourcesResult', 'resources']);
      if (capabilities.prompts) lists.push(['prompts/list', 'ListPromptsResult', 'prompts']);
      if (lists.length === 0) return skip('the server lists nothing');
      const problems: string[] = [];
      for (const [method, definition] of lists) {
        const response = await peer.request(method, { _meta: STATELESS_META });
        if (!('result' in response)) {
          problems.push(`${method} failed: ${JSON.stringify(response.error)}`);
          continue;
        }
        for (const e of await validateAgainst(REVISION, definition, response.result))
          problems.push(`${method}: ${e}`);
      }
      ensure(problems.length === 0, problems.slice(0, 6).join('\n'));
      return undefined;
    },
  },
];
