// `mcpwire doctor --url` against remote servers: a hand-written Streamable HTTP server
// (test/fixtures/doctor-http/server.mjs) that is correct or breaks one rule of the binding, and the check
// aimed at each fault fails while the others pass; mcpwire's own HTTP server passes every check; the
// official SDK's server gets its real findings fast, and the stateless checks skip at once instead of
// waiting out the timeout; bad usage exits 2 and a server nobody serves exits 3 with one line.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allChecks } from '../../src/doctor/checks/index.js';
import { type CheckResult, selectChecks } from '../../src/doctor/runner.js';
import { freePort, type RemoteServer, startRemote } from '../support/remote-servers.js';
import { runCli } from '../support/run-cli.js';

interface Report {
  url?: string;
  passed: boolean;
  results: CheckResult[];
}

const doctor = (args: string[]) => runCli(['doctor', ...args]);

async function report(args: string[]): Promise<{ code: number | null; report: Report }> {
  const { code, stdout, stderr } = await doctor(['--json', ...args]);
  try {
    return { code, report: JSON.parse(stdout) as Report };
  } catch {
    assert.fail(`doctor --json wrote no JSON (exit ${code}); stdout: ${stdout}\nstderr: ${stderr}`);
  }
}

function byId(results: CheckResult[], id: string): CheckResult {
  const result = results.find((r) => r.id === id);
  assert.ok(result, `the report has no result for ${id}`);
  return result;
}

const HTTP_CHECKS = allChecks.filter((c) => c.on === 'http').map((c) => c.id);

/** Each fault of the fixture, the check aimed at it, and what its failure must say. */
const CASES: Array<{ fault: string; check: string; details: RegExp }> = [
  {
    fault: 'no-session-id',
    check: 'http-session',
    details: /issued no Mcp-Session-Id on the answer to initialize, yet refused a request without one/,
  },
  {
    fault: 'unknown-session-400',
    check: 'http-session-ended',
    details: /a session id the server never issued got HTTP 400 .*; 404 is due/,
  },
  {
    fault: 'split-sse',
    check: 'http-post-answer',
    details: /an SSE event of the answer to answer is not one JSON-RPC message: "\{\\"jsonrpc\\"/,
  },
  {
    fault: 'ignores-accept',
    check: 'http-accept',
    details: /a client that accepts only application\/json was answered with text\/event-stream/,
  },
  {
    fault: 'notification-200',
    check: 'http-202',
    details: /a notification got HTTP 200 application\/json: \{"received":true\}; 202 with no body is due/,
  },
  { fault: 'put-as-post', check: 'http-status-codes', details: /PUT was answered as if it were POST/ },
  {
    fault: 'get-json',
    check: 'http-get-stream',
    details:
      /GET with Accept: text\/event-stream got HTTP 200 application\/json; an SSE stream or 405 is due/,
  },
  { fault: 'resume-500', check: 'http-resumption', details: /resuming from Last-Event-ID \S+ got HTTP 500/ },
  {
    fault: 'any-version',
    check: 'http-protocol-version',
    details: /MCP-Protocol-Version: 1999-01-01 got HTTP 200 .*; 400 is due/,
  },
  {
    fault: 'no-origin-check',
    check: 'http-origin',
    details: /Origin http:\/\/evil\.example was answered: any web page could drive this local server/,
  },
  {
    fault: 'no-host-check',
    check: 'http-host',
    details:
      /a request with Host evil\.example \(the server's own port\) was answered: a page that rebinds its hostname/,
  },
  {
    fault: 'no-method-check',
    check: 'http-stateless-headers',
    details: /tools\/list with an Mcp-Method that names another method got HTTP 200/,
  },
  {
    fault: 'no-name-check',
    check: 'http-stateless-headers',
    details:
      /tools\/call with an Mcp-Name that names another tool got HTTP 200 .*; 400 is due; tools\/call with no Mcp-Name got HTTP 200/,
  },
  {
    fault: 'no-param-check',
    check: 'http-stateless-headers',
    details:
      /tools\/call of lookup with no Mcp-Param-Region got HTTP 200 .*; tools\/call of lookup with an Mcp-Param-Region that differs from the argument got HTTP 200/,
  },
];

describe('mcpwire doctor --url against a server that breaks one rule of the binding', {
  concurrency: 3,
}, () => {
  it('the correct server passes every check of the binding', { timeout: 60_000 }, async () => {
    const server = await startRemote('doctor-http', undefined, 'none');
    try {
      const { code, report: r } = await report(['--url', server.url, '--only', HTTP_CHECKS.join(',')]);
      assert.deepEqual(
        r.results
          .filter((x) => x.status !== 'pass')
          .map((x) => `${x.id}: ${x.status} ${x.details.join(' ')}`),
        [],
      );
      assert.equal(code, 0);
      assert.equal(r.url, server.url);
      assert.deepEqual(
        r.results.map((x) => x.id),
        HTTP_CHECKS,
      );
    } finally {
      await server.stop();
    }
  });

  for (const c of CASES) {
    it(`${c.fault} fails ${c.check}, and only that`, { timeout: 60_000 }, async () => {
      const server = await startRemote('doctor-http', undefined, c.fault);
      try {
        const { code, report: r } = await report(['--url', server.url, '--only', HTTP_CHECKS.join(',')]);
        assert.equal(code, 1);
        const failed = byId(r.results, c.check);
        assert.equal(failed.status, 'fail', `${c.check}: ${JSON.stringify(failed.details)}`);
        assert.match(failed.details.join('\n'), c.details);
        assert.deepEqual(failed.rule, allChecks.find((x) => x.id === c.check)?.rule);
        // A fault of the session or of the GET stream takes the checks that need them along; any other
        // leaves every other check passing.
        if (!['no-session-id', 'get-json', 'split-sse'].includes(c.fault)) {
          assert.deepEqual(
            r.results
              .filter((x) => x.id !== c.check && x.status !== 'pass')
              .map((x) => `${x.id}: ${x.status} ${x.details.join(' ')}`),
            [],
          );
        }
      } finally {
        await server.stop();
      }
    });
  }
});

describe('mcpwire doctor --url against real servers', () => {
  let mcpwire: RemoteServer;
  let sdk: RemoteServer;
  before(async () => {
    [mcpwire, sdk] = await Promise.all([startRemote('mcpwire'), startRemote('sdk-streamable')]);
  });
  after(async () => {
    await Promise.all([mcpwire?.stop(), sdk?.stop()]);
  });

  it("mcpwire's own HTTP server passes every check", { timeout: 90_000 }, async () => {
    const { code, report: r } = await report(['--url', mcpwire.url]);
    assert.deepEqual(
      r.results.filter((x) => x.status !== 'pass').map((x) => `${x.id}: ${x.status} ${x.details.join(' ')}`),
      [],
    );
    assert.equal(code, 0);
    assert.deepEqual(
      r.results.map((x) => x.id),
      selectChecks([], 'http').map((x) => x.id),
    );
  });

  it('the official SDK server: the stateless checks skip at once, and its real faults are named', {
    timeout: 90_000,
  }, async () => {
    // The SDK answers a 2026-07-28 request with HTTP 400 and an error of id null; a check that waited for
    // the response to its own id would fail after this timeout instead of skipping.
    const { code, report: r } = await report(['--url', sdk.url, '--timeout', '60000']);
    assert.equal(code, 1);
    for (const id of [
      'stateless-discover',
      'stateless-envelope',
      'stateless-results',
      'http-stateless-headers',
    ]) {
      const result = byId(r.results, id);
      assert.equal(result.status, 'skip', `${id}: ${result.details.join(' ')}`);
      assert.match(result.details.join(' '), /does not speak 2026-07-28/);
    }
    // Its server answers an invalid request as a parse error and runs batches of 2025-11-25.
    assert.match(byId(r.results, 'invalid-request').details.join(' '), /the code is -32700, not -32600/);
    assert.equal(byId(r.results, 'batch-2025-11-25').status, 'fail');
    assert.equal(byId(r.results, 'http-session').status, 'pass');
  });
});

describe('mcpwire doctor --url usage', () => {
  it('--url with a command, --header without --url, a check of stdio over HTTP: exit 2', {
    timeout: 30_000,
  }, async () => {
    const cases: Array<[string[], RegExp]> = [
      [['--url', 'http://127.0.0.1:1/mcp', '--', 'node', 'x.js'], /give either --url URL or "-- COMMAND"/],
      [['--header', 'A: b', '--', 'node', 'x.js'], /--header goes with --url/],
      [
        ['--url', 'http://127.0.0.1:1/mcp', '--only', 'stdout-purity'],
        /stdout-purity does not apply to a server over HTTP/,
      ],
      [['--url', 'not a url'], /not a url/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await doctor(args);
      assert.equal(code, 2, `${args.join(' ')}: ${stderr}`);
      assert.equal(stdout, '');
      assert.match(stderr, message);
    }
  });

  it('a URL nobody serves: one line with a hint, exit 3, no checks run', { timeout: 30_000 }, async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await doctor(['--url', `http://127.0.0.1:${port}/mcp`]);
    assert.equal(code, 3);
    assert.equal(stdout, '');
    assert.match(stderr, new RegExp(`127\\.0\\.0\\.1:${port}`));
    assert.equal(stderr.trim().split('\n').length <= 2, true, stderr);
    assert.doesNotMatch(stderr, /PASS|FAIL/);
  });
});
