// The protocol revisions mcpwire speaks, and version negotiation.

/** Handshake-era revisions, oldest first. */
export const HANDSHAKE_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const;
export type HandshakeVersion = (typeof HANDSHAKE_VERSIONS)[number];

export const LATEST_HANDSHAKE_VERSION: HandshakeVersion = '2025-11-25';

export function isHandshakeVersion(value: unknown): value is HandshakeVersion {
  return (HANDSHAKE_VERSIONS as readonly unknown[]).includes(value);
}

/**
 * The lifecycle rule: a server that supports the requested version answers with it; otherwise it answers
 * with the latest version it supports, and the client decides whether it can go on.
 */
export function negotiateVersion(requested: unknown): HandshakeVersion {
  return isHandshakeVersion(requested) ? requested : LATEST_HANDSHAKE_VERSION;
}

/** Whether `version` is at least `minimum` (revision strings are ISO dates and compare as text). */
export function atLeast(version: string, minimum: string): boolean {
  return version >= minimum;
}
