// The JSON-RPC error a request fails with, for harnesses over a Connection: the test fails if it succeeds.

import type { Connection } from '../../src/jsonrpc/connection.js';
import type { JsonRpcError } from '../../src/jsonrpc/errors.js';

export async function requestError(
  client: Connection,
  method: string,
  params?: unknown,
): Promise<JsonRpcError> {
  try {
    const result = await client.request(method, params);
    throw new Error(`${method} succeeded where an error was expected: ${JSON.stringify(result)}`);
  } catch (error) {
    if ((error as Error).name !== 'JsonRpcError') throw error;
    return error as JsonRpcError;
  }
}
