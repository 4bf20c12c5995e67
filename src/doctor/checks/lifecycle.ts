// Handshake and version negotiation (MCP basic/lifecycle).

import { type Check, ensure, fail, KNOWN_VERSIONS, warn } from '../check.js';
import { HttpPeer } from '../http-peer.js';

const LIFECYCLE = 'MCP 2025-11-25 basic/lifecycle';

export const lifecycleChecks: Check[] = [
  {
    id: 'handshake',
    title: 'initialize returns protocolVersion, capabilities and serverInfo',
    rule: {
      source: LIFECYCLE,
      text: 'The server MUST respond to initialize with its protocol version, capabilities and implementation info.',
    },
    hint: 'Answer initialize with {protocolVersion, capabilities: {...}, serverInfo: {name, version}}.',
    async run(peer) {
      const result = await peer.initialize('2025-11-25');
      ensure(typeof result.protocolVersion === 'string', 'protocolVersion is missing');
      ensure(
        typeof result.capabilities === 'object' && result.capabilities !== null,
        'capabilities is missing',
      );
      const info = result.serverInfo as { name?: unknown; version?: unknown } | undefined;
      ensure(
        typeof info?.name === 'string' && typeof info.version === 'string',
        'serverInfo needs a name and a version',
      );
      if (result.protocolVersion !== '2025-11-25') {
        return warn(
          `asked for 2025-11-25, got ${String(result.protocolVersion)}: the server does not support the latest handshake revision`,
        );
      }
      return undefined;
    },
  },
  {
    id: 'version-old',
    title: 'an older supported revision (2024-11-05) is negotiated',
    rule: {
      source: LIFECYCLE,
      text: 'If the server supports the requested version, it MUST respond with the same version; otherwise with another version it supports.',
    },
    hint: 'Keep accepting older revisions: deployed hosts still ask for 2024-11-05.',
    async run(peer) {
      const result = await peer.initialize('2024-11-05');
      const version = String(result.protocolVersion);
      ensure(
        KNOWN_VERSIONS.includes(version),
        `answered with ${JSON.stringify(result.protocolVersion)}, which is no protocol revision`,
      );
      if (version !== '2024-11-05')
        return warn(`answered ${version}: clients that only speak 2024-11-05 will disconnect`);
      return undefined;
    },
  },
  {
    id: 'version-unknown',
    title: 'an unknown version ("0.1.0") gets a supported version, not an error',
    rule: {
      source: LIFECYCLE,
      text: 'If the server does not support the requested version, it MUST respond with another version it supports.',
    },
    hint: 'Answer an unknown protocolVersion with your latest supported revision; let the client decide.',
    async run(peer) {
      const response = await peer.request('initialize', {
        protocolVersion: '0.1.0',
        capabilities: {},
        clientInfo: { name: 'mcpwire-doctor', version: '1.0.0' },
      });
      if ('error' in response) fail(`initialize with "0.1.0" was refused: ${JSON.stringify(response.error)}`);
      const version = (response.result as { protocolVersion?: unknown }).protocolVersion;
      ensure(
        KNOWN_VERSIONS.includes(String(version)),
        `answered with ${JSON.stringify(version)} instead of a supported revision`,
      );
      return undefined;
    },
  },
  {
    id: 'ping',
    title: 'ping answers {} before and after initialize',
    rule: {
      source: 'MCP 2025-11-25 basic/utilities/ping',
      text: 'The receiver MUST respond promptly with an empty response.',
    },
    hint: 'Handle "ping" at any time with an empty result {}.',
    async run(peer) {
      // Over HTTP a request before initialize has no session to go in: only stdio can ask that.
      const before = peer instanceof HttpPeer ? undefined : await peer.request('ping');
      await peer.initialize();
      const after = await peer.request('ping');
      ensure(
        'result' in after && JSON.stringify(after.result) === '{}',
        `ping after initialize: ${JSON.stringify(after)}`,
      );
      if (before && !('result' in before))
        return warn(`ping before initialize was refused: ${JSON.stringify(before.error)}`);
      return undefined;
    },
  },
];
