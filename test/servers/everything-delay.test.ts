// The everything server's waits (longRunningOperation's steps, the logging and progress fixtures) end
// when their request is cancelled, including a cancellation that arrived before the wait began.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { delay } from '../../src/servers/everything/assets.js';

describe('the everything server: delay', { timeout: 5_000 }, () => {
  it('bug: a signal aborted before the wait began was not seen; the wait ran its whole time', async () => {
    await assert.rejects(delay(60_000, AbortSignal.abort(new Error('cancelled first'))), /cancelled first/);
  });

  it('ends when the signal is aborted during the wait', async () => {
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal);
    controller.abort(new Error('cancelled'));
    await assert.rejects(waiting, /cancelled/);
  });
});
