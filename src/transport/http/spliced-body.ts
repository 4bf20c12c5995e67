// A message with streamed values (jsonrpc/streamed.ts) written into an HTTP answer as the values are read:
// `head`, the JSON around the values and their escaped bytes, then `tail`, each write waiting for the
// socket to drain. A client that goes away stops the reading and closes the sources.

import type { ServerResponse } from 'node:http';
import { type SplicedJson, writeSplicedParts } from '../../jsonrpc/streamed.js';

export async function writeSplicedBody(
  response: ServerResponse,
  head: string,
  message: SplicedJson,
  tail: string,
): Promise<void> {
  const put = async (data: string | Uint8Array) => {
    if (response.destroyed) throw new Error('the client closed the answer');
    if (!response.write(data)) {
      await new Promise<void>((resolve) => {
        const done = () => {
          response.off('drain', done);
          response.off('close', done);
          resolve();
        };
        response.on('drain', done);
        response.on('close', done);
      });
    }
  };
  try {
    await writeSplicedParts(message, head, tail, put);
    response.end();
  } catch (error) {
    for (const value of message.values) value.release();
    // Half an answer cannot be taken back: the connection is cut so the client sees it failed.
    response.destroy(error as Error);
  }
}
