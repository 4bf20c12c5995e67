// The inspector's request guard, in process: a request from off this machine, for another Host (DNS
// rebinding), from another site's page, without the token or with a wrong one is refused with the status
// that says why; the right one passes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRequest, isLoopback, sameToken } from '../../src/inspect/web/guard.js';

const PORT = 41234;
const TOKEN = 'tok-abc';
const good = { remoteAddress: '127.0.0.1', host: `127.0.0.1:${PORT}`, origin: undefined, token: TOKEN };

describe('the inspector guard', () => {
  it('lets a loopback request with our Host, our Origin (or none) and the token through', () => {
    assert.equal(checkRequest(good, PORT, TOKEN), undefined);
    assert.equal(checkRequest({ ...good, origin: `http://127.0.0.1:${PORT}` }, PORT, TOKEN), undefined);
    assert.equal(
      checkRequest({ ...good, host: `localhost:${PORT}`, remoteAddress: '::1' }, PORT, TOKEN),
      undefined,
    );
    assert.equal(checkRequest({ ...good, remoteAddress: '::ffff:127.0.0.1' }, PORT, TOKEN), undefined);
  });

  it('refuses a peer that is not loopback, even with everything else right', () => {
    for (const remoteAddress of ['192.168.1.20', '10.0.0.1', '::ffff:192.168.1.20', 'fe80::1', undefined]) {
      assert.equal(checkRequest({ ...good, remoteAddress }, PORT, TOKEN)?.status, 403, String(remoteAddress));
    }
  });

  it('refuses a foreign or missing Host (a rebound DNS name), another port included', () => {
    for (const host of ['evil.example:41234', `127.0.0.1:${PORT + 1}`, '127.0.0.1', undefined]) {
      const refusal = checkRequest({ ...good, host }, PORT, TOKEN);
      assert.equal(refusal?.status, 421, String(host));
      assert.match(refusal!.message, /Host/);
    }
  });

  it("refuses another site's page even when it has the token", () => {
    for (const origin of [
      'http://evil.example',
      `http://127.0.0.1:${PORT + 1}`,
      'null',
      `https://127.0.0.1:${PORT}`,
    ]) {
      assert.equal(checkRequest({ ...good, origin }, PORT, TOKEN)?.status, 403, origin);
    }
  });

  it('refuses a request without the token, or with a wrong one', () => {
    assert.equal(checkRequest({ ...good, token: undefined }, PORT, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...good, token: '' }, PORT, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...good, token: 'tok-abd' }, PORT, TOKEN)?.status, 401);
    assert.equal(checkRequest({ ...good, token: `${TOKEN}x` }, PORT, TOKEN)?.status, 401);
  });

  it('compares tokens of any length without throwing, and tells loopback apart', () => {
    assert.equal(sameToken('a', 'a much longer token'), false);
    assert.equal(sameToken('same', 'same'), true);
    assert.equal(isLoopback('127.8.9.10'), true);
    assert.equal(isLoopback('128.0.0.1'), false);
  });
});
