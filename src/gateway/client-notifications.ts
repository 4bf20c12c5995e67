// Which of a front client's notifications go on to a back server. The proxy carries the client's own
// (roots/list_changed, and any it does not know), not those about the front's requests: a cancellation or
// progress names a request id of the front connection, which is another request (or none) on the back
// connection, and the front request's own signal already cancels its back request. A back of 2026-07-28
// takes no notifications at all (that revision has none from the client; over HTTP one was sent as a
// session message, refused with 400, and the back was lost).

import type { McpClient } from '../client/client.js';

const ABOUT_FRONT_REQUESTS = new Set([
  'notifications/cancelled',
  'notifications/progress',
  'notifications/initialized',
]);

/** Sends a front client's notification on to a back server, when it belongs there. */
export function forwardClientNotification(client: McpClient, method: string, params: unknown): void {
  if (ABOUT_FRONT_REQUESTS.has(method) || client.era === 'stateless') return;
  client.notify(method, (params ?? undefined) as Record<string, unknown>);
}
