// The inspector page under load (issue 22): a server with 1,000 tools and a wire view of 100,000
// messages, in headless chromium. Measured in the page itself (performance.now): the time to first render
// (from navigation until the tool list is drawn and the whole feed is loaded) and the time to filter (from
// typing into a filter until the list shows the result), for the tools and for the wire.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { McpHost } from '../../src/host/host.js';
import { startInspectServer } from '../../src/inspect/web/server.js';
import { InspectSession } from '../../src/inspect/web/session.js';
import type { Row, Suite } from '../lib/suite.js';
import { median } from '../lib/timing.js';

const CHROMIUM = '/usr/bin/chromium';
const SERVER = fileURLToPath(new URL('../peers/many-tools-server.mjs', import.meta.url));

export const inspectPage: Suite = {
  name: 'inspect',
  description:
    'the inspector page in chromium: first render and filtering with 1,000 tools and 100,000 messages',
  async run(context) {
    if (!existsSync(CHROMIUM)) {
      return [
        {
          title: 'mcpwire inspect: the page under load',
          ratioColumns: [],
          rows: [
            { case: 'first render', subject: 'chromium', failed: true, note: 'apt-get install -y chromium' },
          ],
          notes: [`${CHROMIUM} is missing: apt-get install -y chromium`],
        },
      ];
    }
    const tools = 1000;
    const messages = context.quick ? 20_000 : 100_000;
    const runs = context.quick ? 2 : 5;
    const session = new InspectSession();
    const host = new McpHost(
      {
        servers: {
          many: {
            command: process.execPath,
            args: [SERVER, String(tools)],
            env: {},
            cwd: undefined,
            disabled: false,
          },
        },
      },
      { wrapTransport: session.wrapTransport, healthInterval: 0, restart: false, client: session.answers },
    );
    await host.start({ requireAll: true });
    session.attach(host);
    // The wire of a busy session: requests and their answers, a progress notification now and then.
    for (let i = 0; i < messages / 2; i++) {
      session.feed.message('many', {
        from: 'client',
        payload: {
          jsonrpc: '2.0',
          id: 1000 + i,
          method: 'tools/call',
          params: { name: `tool_${i % tools}`, arguments: { text: `call ${i}` } },
        },
      });
      session.feed.message('many', {
        from: 'server',
        payload: { jsonrpc: '2.0', id: 1000 + i, result: { content: [{ type: 'text', text: `call ${i}` }] } },
        latencyMs: 0.2 + (i % 50) / 10,
        answers: 'tools/call',
      });
    }
    const server = await startInspectServer({ session });
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    const first: number[] = [];
    const toolFilter: number[] = [];
    const wireFilter: number[] = [];
    try {
      for (let run = 0; run < runs; run++) {
        context.progress(`inspect: run ${run + 1} of ${runs}`);
        const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
        page.setDefaultTimeout(120_000);
        await page.goto(server.url);
        const total = session.feed.size;
        // The page's own script policy forbids evaluating strings in it: locators wait instead.
        await page.locator('[data-tool]').first().waitFor();
        await page.locator('[data-tab="Wire"]', { hasText: `(${total})` }).waitFor();
        first.push(await page.evaluate(() => performance.now()));
        toolFilter.push(
          await timeFilter(page, '[data-testid="tool-filter"]', 'tool_999', '[data-testid="tool-list"]', '1'),
        );
        await page.click('[data-tab="Wire"]');
        await page.locator('[data-testid="wire-list"] .wrow').first().waitFor();
        wireFilter.push(
          await timeFilter(page, '[data-testid="wire-filter"]', '1999', '[data-testid="wire-list"]', '2'),
        );
        await page.close();
      }
    } finally {
      await browser.close();
      await server.close();
      await host.shutdown();
    }
    const row = (name: string, samples: number[]): Row => ({
      case: name,
      subject: 'chromium',
      medianMs: median(samples),
      samplesMs: samples,
    });
    return [
      {
        title: `mcpwire inspect: the page with ${tools.toLocaleString('en')} tools and ${messages.toLocaleString('en')} wire messages`,
        ratioColumns: [],
        rows: [
          row('first render (navigation → tools drawn, whole feed loaded)', first),
          row(`filter ${tools} tools (typed → list redrawn)`, toolFilter),
          row(`filter ${messages.toLocaleString('en')} messages by id (typed → list redrawn)`, wireFilter),
        ],
        notes: [
          'Headless Debian chromium on this machine, timed inside the page with performance.now(); lists are virtualised (only the rows in sight are drawn).',
        ],
      },
    ];
  },
};

/** Types into a filter and times until the list's count is `expected`, in the page's own clock. */
function timeFilter(
  page: Page,
  input: string,
  text: string,
  list: string,
  expected: string,
): Promise<number> {
  // A string, not a function: the loader that runs the benchmark names functions with a helper that the
  // page does not have.
  const args = JSON.stringify({ input, text, list, expected });
  return page.evaluate(`new Promise((resolve) => {
    const { input, text, list, expected } = ${args};
    const field = document.querySelector(input);
    const start = performance.now();
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    const check = () => {
      if (document.querySelector(list)?.getAttribute('data-count') === expected) resolve(performance.now() - start);
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })`) as Promise<number>;
}
