// `mcpwire inspect` in a real browser: Debian's chromium, driven by playwright-core (which downloads
// nothing). One inspector runs three servers from a configuration: `mcpwire serve everything` (the
// 2026-07-28 era), the official server-everything (the handshake era) and a broken fixture that answers
// notifications; the page adds two more: a hand-written stdio fixture (forms-server.mjs) and a remote
// server that wants a bearer token. Through the page: call tools from their generated forms (a nested $ref
// object, an array of $ref items, enums and defaults; missing and invalid input stopped before sending),
// see results by content type and structuredContent checked against the output schema (a mismatch
// flagged), watch progress and cancel a long call, read resources (a link from a result too), subscribe,
// complete template variables and prompt arguments, answer elicitation and sampling dialogs, set roots and
// the log level, run the doctor, export a session and replay it, and see the wire fill with timing,
// pairing, latency per method and the broken server's fault flagged. Last, the refusals: no token, a
// DNS-rebound Host, another site's page, a non-loopback address. A screenshot is taken at each step and
// checked: by what the page shows then, and for some by their pixels.

// biome-ignore-all lint/performance/useDomNodeTextContent: these are playwright locators, whose innerText() is what the person sees

import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BIN, EVERYTHING_BIN, REPO_ROOT } from '../support/peers.js';
import { runCli } from '../support/run-cli.js';
import { startTokenIssuer } from '../support/token-issuer.js';

const CHROMIUM = '/usr/bin/chromium';
/** A failure limit for anything the page waits for, never a synchronisation. */
const LIMIT = 60_000;
/** One folder, overwritten by each run: the screenshots of the last run stay there to look at. */
const SHOTS = path.join(tmpdir(), 'mcpwire-inspect-screenshots');
const FORMS = path.join(REPO_ROOT, 'test/fixtures/inspect/forms-server.mjs');
const REBOUND = 'rebound.example';

let child: ChildProcessWithoutNullStreams | undefined;
let browser: Browser | undefined;
let page: Page;
let address: string;
const cleanups: Array<() => Promise<void>> = [];
/** Every address the page asked for: all of them the inspector's own (no CDN; it works offline). */
const requested: string[] = [];

before(async () => {
  assert.ok(
    existsSync(CHROMIUM),
    `${CHROMIUM} is missing: these tests need Debian's chromium. Install it with: apt-get install -y chromium (npm test does it when run as root)`,
  );
  mkdirSync(SHOTS, { recursive: true });
  const config = path.join(SHOTS, 'servers.json');
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: {
        mine: { command: process.execPath, args: [BIN, 'serve', 'everything'] },
        official: { command: EVERYTHING_BIN, args: ['stdio'] },
        broken: {
          command: process.execPath,
          args: [path.join(REPO_ROOT, 'test/fixtures/broken/answers-notifications.mjs')],
        },
      },
    }),
  );
  const started = spawn(process.execPath, [BIN, 'inspect', '--no-open', '--config', config], {
    cwd: REPO_ROOT,
    // No tokens of the person's own `mcpwire login` are used, nor stored.
    env: { ...process.env, MCPWIRE_AUTH_FILE: path.join(SHOTS, 'auth.json') },
  });
  child = started;
  let err = '';
  started.stderr.setEncoding('utf8').on('data', (t: string) => {
    err += t;
  });
  address = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address within ${LIMIT} ms; stderr: ${err}`)), LIMIT);
    started.stdout.setEncoding('utf8').on('data', (t: string) => {
      out += t;
      const match = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[0]);
      }
    });
    started.on('exit', (code) => reject(new Error(`inspect exited with ${code}: ${err}`)));
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // A name of another site that resolves to this machine: what a DNS rebinding attack makes of its own.
    args: ['--no-sandbox', `--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`],
  });
  page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(LIMIT);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('request', (request) => requested.push(request.url()));
  await page.goto(address);
  await page.locator('.app[data-ready="yes"]').waitFor();
  assert.deepEqual(errors, []);
});

after(async () => {
  await browser?.close();
  for (const cleanup of cleanups) await cleanup();
  if (child && child.exitCode === null) {
    const closed = new Promise((resolve) => child!.on('close', resolve));
    child.kill('SIGTERM');
    await closed;
  }
});

/** Saves a screenshot of the page (or one element) and gives its bytes. */
async function shot(name: string, selector?: string, of: Page = page): Promise<Buffer> {
  const file = path.join(SHOTS, `${name}.png`);
  if (selector) await of.locator(selector).first().screenshot({ path: file });
  else await of.screenshot({ path: file });
  const bytes = readFileSync(file);
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG', `${file} is a PNG`);
  return bytes;
}

/** How much of a screenshot is strongly red: decoded by the browser itself, pixel by pixel. */
async function redShare(png: Buffer): Promise<number> {
  // A string: the test's own type-check has no DOM, the page has.
  return page.evaluate(`(async () => {
    const image = new Image();
    image.src = 'data:image/png;base64,${png.toString('base64')}';
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    let red = 0;
    for (let i = 0; i < pixels.length; i += 4)
      if (pixels[i] > 150 && pixels[i + 1] < 110 && pixels[i + 2] < 110) red++;
    return red / (pixels.length / 4);
  })()`) as Promise<number>;
}

async function chooseTool(name: string): Promise<void> {
  await page.click('[data-tab="Tools"]');
  await page.fill('[data-testid="tool-filter"]', name.split('__')[1]!);
  await page.click(`[data-tool="${name}"]`);
  await page.locator('[data-testid="tool-panel"] h2', { hasText: '' }).waitFor();
}

describe('mcpwire inspect in chromium', () => {
  // (The doctor's step is last but one: it starts fresh processes of the broken server.)
  it('connects to every server and lists their tools', async () => {
    for (const name of ['mine', 'official', 'broken'])
      await page.locator(`[data-testid="server-${name}"]`, { hasText: 'ready' }).waitFor();
    await shot('01-connected');
    assert.match(
      await page.locator('[data-testid="server-mine"]').innerText(),
      /mcpwire-everything .* 2026-07-28/,
    );
    assert.match(await page.locator('[data-testid="server-official"]').innerText(), /2025-/);
    assert.match(await page.locator('[data-tab="Tools"]').innerText(), /Tools \(\d\d+\)/);
  });

  it('adds a server from the page, after refusing a form that cannot work', async () => {
    await page.click('[data-tab="Servers"]');
    await page.fill('[data-testid="add-name"]', 'mine');
    await page.fill('[data-testid="add-text"]', `"${process.execPath}" "${FORMS}`);
    await page.click('[data-testid="add-server"]');
    const outcome = page.locator('[data-testid="add-outcome"]');
    // Checked on the page, before anything is sent; then the inspector refuses a name that is taken.
    await outcome.filter({ hasText: 'unclosed' }).waitFor();
    await page.fill('[data-testid="add-text"]', `"${process.execPath}" "${FORMS}"`);
    await page.click('[data-testid="add-server"]');
    await outcome.filter({ hasText: 'there is a server named "mine" already' }).waitFor();
    await page.fill('[data-testid="add-name"]', 'forms');
    await page.click('[data-testid="add-server"]');
    await outcome.filter({ hasText: 'forms: ready' }).waitFor();
    await page.locator('[data-testid="server-forms"]', { hasText: 'forms-fixture 1.0.0' }).waitFor();
    await shot('01b-added');
    assert.equal(await outcome.getAttribute('data-ok'), 'true');
    assert.match(await page.locator('tr[data-server="forms"]').innerText(), /forms\s+ready\s+forms-fixture/);
  });

  it('adds a remote server that wants a token: refused without it, ready with it, in the other era', async () => {
    const issuer = await startTokenIssuer();
    const remote = spawn(
      process.execPath,
      [BIN, 'serve', 'everything', '--http', '0', '--auth-issuer', issuer.issuer],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    // Both live to the end: the inspector keeps talking to the server.
    cleanups.push(async () => {
      remote.kill('SIGKILL');
      await issuer.close();
    });
    {
      const url = await new Promise<string>((resolve, reject) => {
        let seen = '';
        remote.stderr.setEncoding('utf8').on('data', (t: string) => {
          seen += t;
          const found = /listening on (http:\/\/\S+)/.exec(seen)?.[1];
          if (found) resolve(found);
        });
        remote.once('exit', (code) => reject(new Error(`the remote server exited with ${code}: ${seen}`)));
      });
      await page.click('[data-tab="Servers"]');
      await page.check('input[name="add-kind"][value="url"]');
      await page.fill('[data-testid="add-name"]', 'remote');
      await page.fill('[data-testid="add-text"]', url);
      await page.click('[data-testid="add-server"]');
      const outcome = page.locator('[data-testid="add-outcome"]');
      await outcome.filter({ hasText: 'remote: failed' }).waitFor();
      await shot('01c-remote-refused');
      assert.match(await outcome.innerText(), /needs a login at http:\/\/127\.0\.0\.1:\d+: no stored token/);
      const token = await issuer.mint({ audience: url, scope: 'mcp' });
      await page.fill('[data-testid="add-headers"]', `Authorization: Bearer ${token}`);
      await page.click('[data-testid="add-server"]');
      await outcome.filter({ hasText: 'remote: ready' }).waitFor();
      const badge = page.locator('[data-testid="server-remote"]');
      await badge.filter({ hasText: 'ready' }).waitFor();
      assert.match(await badge.innerText(), /mcpwire-everything .*streamable-http/);
      await chooseTool('remote__add');
      await page.fill('input[name="a"]', '20');
      await page.fill('input[name="b"]', '22');
      await page.click('[data-testid="call"]');
      await page.locator('[data-testid="result"] [data-check="valid"]').waitFor();
      await shot('01d-remote-call');
      assert.match(await page.locator('[data-testid="result"]').innerText(), /42/);
    }
  });

  it('builds a form with arrays of $ref items, enums and defaults, stops what is missing, then calls', async () => {
    await chooseTool('forms__order');
    // Defaults are filled in: the enums show their default choice, the boolean its default.
    assert.equal(await selectedLabel('select[name="customer.tier"]'), 'basic');
    assert.equal(await selectedLabel('select[name="shipping"]'), 'standard');
    assert.equal(await page.locator('select[name="gift"]').inputValue(), 'false');
    const callsBefore = await wireCount('tools/call');
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="form-errors"]').waitFor();
    await shot('03a-missing');
    assert.ok(await page.locator('.field-error[data-field="customer.name"]').isVisible());
    assert.ok(await page.locator('.field-error[data-field="lines"]').isVisible());
    assert.equal(await wireCount('tools/call'), callsBefore, 'nothing was sent');
    await page.fill('input[name="customer.name"]', 'Ada');
    await page.click('[data-add="lines"]');
    await page.click('[data-add="lines"]');
    // Each new item starts from its $ref'd schema's defaults.
    assert.equal(await page.locator('input[name="lines[1].qty"]').inputValue(), '1');
    await page.fill('input[name="lines[0].sku"]', 'A-1');
    await page.fill('input[name="lines[1].sku"]', 'B-2');
    await page.fill('input[name="lines[1].qty"]', '3');
    await page.locator('select[name="shipping"]').selectOption({ label: 'express' });
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
    await shot('03b-order');
    assert.match(
      await page.locator('[data-testid="result"] [data-type="text"]').innerText(),
      /^\{"customer":\{"name":"Ada","tier":"basic"\},"lines":\[\{"sku":"A-1","qty":1\},\{"sku":"B-2","qty":3\}\],"shipping":"express","gift":false\}$/,
    );
    await page.locator('[data-testid="result"] [data-check="valid"]').waitFor();
    assert.match(await page.locator('[data-type="structured"]').innerText(), /"items": 4/);
  });

  it('flags structuredContent that does not match the output schema', async () => {
    await chooseTool('forms__miscount');
    await page.click('[data-testid="call"]');
    const flagged = page.locator('[data-testid="result"] [data-check="invalid"]');
    await flagged.waitFor();
    await shot('03c-output-mismatch', '[data-type="structured"]');
    assert.match(await flagged.innerText(), /count: must be integer/);
    const picture = await shot('03d-output-flag', '[data-check="invalid"]');
    assert.ok((await redShare(picture)) > 0.03, 'the mismatch is drawn in red');
  });

  it("exports the added server's session, a trace log that replay runs clean against the server", async () => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click('[data-testid="export-forms"]'),
    ]);
    assert.equal(download.suggestedFilename(), 'forms.trace.jsonl');
    const file = path.join(SHOTS, 'forms.trace.jsonl');
    await download.saveAs(file);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(
      lines.some((l) => l.includes('"order"')),
      'the call is in the log',
    );
    const replayed = await runCli(['replay', file, '--', process.execPath, FORMS]);
    assert.equal(replayed.code, 0, replayed.stdout + replayed.stderr);
    const compared = /^(\d+) answers compared: \1 the same, 0 different$/m.exec(replayed.stdout);
    assert.ok(compared && Number(compared[1]) >= 4, replayed.stdout);
  });

  it('stops invalid input before sending, then calls the tool with the corrected form', async () => {
    await chooseTool('official__get-sum');
    await page.fill('input[name="a"]', '2');
    await page.fill('input[name="b"]', 'three');
    const callsBefore = await wireCount('tools/call');
    await page.click('[data-testid="call"]');
    await page.locator('.field-error[data-field="b"]').waitFor();
    await shot('02-invalid-input');
    assert.equal(await page.locator('.field-error[data-field="b"]').innerText(), '"three" is not a number');
    assert.match(await page.locator('[data-testid="form-errors"]').innerText(), /Not sent/);
    assert.equal(await wireCount('tools/call'), callsBefore, 'nothing was sent');
    await page.fill('input[name="b"]', '3');
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
    await shot('03-result');
    assert.match(await page.locator('[data-testid="result"]').innerText(), /5/);
  });

  it('fills a nested object of a $ref from the form', async () => {
    await chooseTool('mine__json_schema_2020_12_tool');
    await page.fill('input[name="name"]', 'Ada');
    await page.fill('input[name="address.street"]', 'Main St');
    await page.fill('input[name="address.city"]', 'Paris');
    // The schema asks for a phone or an email (allOf/anyOf, if/then/else).
    await page.fill('input[name="email"]', 'ada@example.org');
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
    await shot('04-nested');
    assert.match(
      await page.locator('[data-testid="result"]').innerText(),
      /\{"name":"Ada","address":\{"street":"Main St","city":"Paris"\},"email":"ada@example\.org"\}/,
    );
  });

  it('renders an image result and checks structuredContent against the output schema', async () => {
    await chooseTool('mine__test_image_content');
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="result"] img').waitFor();
    const image = await shot('05-image', '[data-testid="result"] img');
    assert.ok((await redShare(image)) > 0.5, 'the red 1x1 PNG is shown red');
    await chooseTool('mine__add');
    await page.fill('input[name="a"]', '1');
    await page.fill('input[name="b"]', '2');
    await page.click('[data-testid="call"]');
    await page.locator('[data-check="valid"]').waitFor();
  });

  it('renders audio, an embedded resource, and resource links that open in the resource view', async () => {
    await chooseTool('mine__test_audio_content');
    await page.click('[data-testid="call"]');
    const audio = page.locator('[data-testid="result"] [data-type="audio"] audio');
    await audio.waitFor();
    assert.match(String(await audio.getAttribute('src')), /^data:audio\/wav;base64,/);
    // The browser decodes it: a duration means it is playable sound, not just an element.
    const duration = await audio.evaluate(
      (element) =>
        new Promise<number>((resolve) => {
          const media = element as unknown as {
            duration: number;
            readyState: number;
            onloadedmetadata: unknown;
          };
          if (media.readyState >= 1) resolve(media.duration);
          else media.onloadedmetadata = () => resolve(media.duration);
        }),
    );
    assert.ok(duration >= 0 && Number.isFinite(duration), `duration ${duration}`);
    await chooseTool('mine__test_embedded_resource');
    await page.click('[data-testid="call"]');
    const embedded = page.locator('[data-testid="result"] [data-type="resource"]');
    await embedded.waitFor();
    assert.match(await embedded.innerText(), /embedded test:\/\/embedded-resource/);
    await chooseTool('official__get-resource-links');
    await page.fill('input[name="count"]', '2');
    await page.click('[data-testid="call"]');
    const links = page.locator('[data-testid="result"] [data-type="resource_link"]');
    await links.nth(1).waitFor();
    await shot('05b-links');
    assert.equal(await links.count(), 2);
    const uri = (await links.first().locator('.muted').innerText()).trim();
    await links.first().locator('button.link').click();
    await page.locator('[data-tab="Resources"].chosen').waitFor();
    await page.click('[data-testid="read"]');
    const contents = page.locator('[data-testid="resource-contents"]');
    await contents.filter({ hasText: uri }).waitFor();
    await shot('05c-link-opened');
  });

  it('shows the progress of a long call and cancels it', async () => {
    await chooseTool('mine__longRunningOperation');
    await page.fill('input[name="duration"]', '60');
    await page.fill('input[name="steps"]', '60');
    await page.click('[data-testid="call"]');
    await page.locator('[data-testid="progress"]', { hasText: '/ 60' }).waitFor();
    await shot('06-progress');
    assert.match(await page.locator('[data-testid="progress"]').innerText(), /step \d+ of 60/);
    const bar = page.locator('[data-testid="progress"] progress');
    assert.equal(await bar.getAttribute('max'), '60');
    assert.ok(Number(await bar.getAttribute('value')) >= 1, 'the bar has moved');
    await page.click('[data-testid="cancel"]');
    await page.locator('[data-testid="result"][data-status="error"]').waitFor();
    await shot('07-cancelled');
    assert.match(await page.locator('[data-testid="result"]').innerText(), /cancel/i);
  });

  it('reads a resource', async () => {
    await page.click('[data-tab="Resources"]');
    await page.click('[data-uri="test://static-text"]');
    await page.click('[data-testid="read"]');
    await page.locator('[data-testid="resource-contents"] pre').waitFor();
    await shot('08-resource');
    assert.ok((await page.locator('[data-testid="resource-contents"] pre').innerText()).length > 0);
  });

  it('subscribes to a resource and shows its updates; completes a template variable and reads it', async () => {
    await page.click('[data-tab="Resources"]');
    await page.click('[data-uri="test://watched-resource"]');
    await page.check('[data-testid="subscribe"]');
    await page.locator('[data-testid="updates"]', { hasText: 'test://watched-resource changed' }).waitFor();
    await page.uncheck('[data-testid="subscribe"]');
    await page.click('[data-template="test://template/{id}/data"]');
    const form = page.locator('[data-testid="template-form"]');
    await form.locator('input[name="id"]').fill('1');
    // The server's answer to "1" (its ids that start with 1) replaces its answer to "" (all of them).
    const completions = form.locator('[data-testid="completions-id"]');
    await completions.locator('option[value="123"]').waitFor({ state: 'attached' });
    await completions.locator('option[value="42"]').waitFor({ state: 'detached' });
    const suggested = await form
      .locator('datalist option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    assert.ok(suggested.length > 0 && suggested.every((v) => v.startsWith('1')), suggested.join(','));
    await form.locator('button.primary').click();
    await page.click('[data-testid="read"]');
    await page.locator('[data-testid="resource-contents"] pre', { hasText: 'Data for ID: 1' }).waitFor();
    await shot('09-subscription-and-template');
  });

  it('gets a prompt with its arguments', async () => {
    await page.click('[data-tab="Prompts"]');
    await page.click('[data-prompt="test_prompt_with_arguments"]');
    await page.click('[data-testid="get-prompt"]');
    await page.locator('.field.invalid input[name="arg1"]').waitFor();
    await page.fill('input[name="arg1"]', 'alpha');
    await page.fill('input[name="arg2"]', 'beta');
    await page.click('[data-testid="get-prompt"]');
    await page.locator('[data-testid="prompt-result"]').waitFor();
    assert.match(
      await page.locator('[data-testid="prompt-result"]').innerText(),
      /alpha[\s\S]*beta|beta[\s\S]*alpha/,
    );
  });

  it("completes a prompt's arguments, the second from what the first says", async () => {
    await page.click('[data-tab="Prompts"]');
    await page.click('[data-prompt="completable-prompt"]');
    const options = (name: string) => page.locator(`datalist#prompt-${name} option`);
    await page.fill('input[name="department"]', 'Eng');
    await options('department').first().waitFor({ state: 'attached' });
    assert.deepEqual(await values(options('department')), ['Engineering']);
    await page.fill('input[name="department"]', 'Engineering');
    await page.fill('input[name="name"]', '');
    await page.locator('input[name="name"]').press('A');
    // The server completes a member of the chosen department only: it was told the department.
    await options('name').first().waitFor({ state: 'attached' });
    const members = await values(options('name'));
    assert.ok(members.length > 0 && members.every((m) => m.startsWith('A')), members.join(','));
    await page.fill('input[name="name"]', members[0]!);
    await page.click('[data-testid="get-prompt"]');
    await page.locator('[data-testid="prompt-result"]').waitFor();
    await shot('09b-prompt-completion');
    assert.match(await page.locator('[data-testid="prompt-result"]').innerText(), new RegExp(members[0]!));
  });

  it('answers an elicitation in a dialog', async () => {
    await chooseTool('mine__test_elicitation');
    await page.fill('input[name="message"]', 'Who are you?');
    await page.click('[data-testid="call"]');
    const dialog = page.locator('[data-testid="ask-elicitation"]');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /mine asks\s+Who are you\?/);
    await dialog.locator('[data-testid="ask-accept"]').click();
    await dialog.locator('.field-error[data-field="username"]').waitFor();
    await dialog.locator('input[name="username"]').fill('ada');
    await dialog.locator('input[name="email"]').fill('ada@example.com');
    await shot('09-elicitation');
    assert.equal(
      await dialog.locator('.field-error').count(),
      0,
      'the problems went away as they were fixed',
    );
    await dialog.locator('[data-testid="ask-accept"]').click();
    await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
    assert.match(
      await page.locator('[data-testid="result"]').innerText(),
      /action=accept, content=\{"username":"ada","email":"ada@example.com"\}/,
    );
  });

  it('answers a sampling request in a dialog, and a declined one is rejected', async () => {
    await chooseTool('mine__test_sampling');
    await page.fill('input[name="prompt"]', 'Say hi');
    await page.click('[data-testid="call"]');
    const dialog = page.locator('[data-testid="ask-sampling"]');
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Say hi/);
    await dialog.locator('[data-testid="sampling-reply"]').fill('hi there');
    await shot('10-sampling');
    await dialog.locator('[data-testid="ask-accept"]').click();
    await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
    assert.match(await page.locator('[data-testid="result"]').innerText(), /LLM response: hi there/);
    await page.click('[data-testid="call"]');
    await dialog.waitFor();
    await dialog.locator('[data-testid="ask-decline"]').click();
    await page.locator('[data-testid="result"]:not([data-status="ok"])').waitFor();
    assert.doesNotMatch(await page.locator('[data-testid="result"]').innerText(), /LLM response/);
  });

  it('sets roots the servers then ask for, and the level of the logs they send', async () => {
    await page.click('[data-tab="Roots"]');
    await page.fill('[data-testid="roots"]', 'file:///tmp/inspected');
    await page.click('text=Set roots');
    await page.locator('text=1 root set').waitFor();
    await page.click('[data-tab="Logs"]');
    await page.selectOption('[data-testid="log-level"]', 'debug');
    await shot('11-logs');
    assert.equal(await page.locator('[data-testid="log-level"]').inputValue(), 'debug');
    assert.ok(Number(await page.locator('[data-testid="log-list"]').getAttribute('data-count')) > 0);
    // On the wire: the servers' roots/list answered with the root, and the level asked of them.
    await page.click('[data-tab="Wire"]');
    for (const [filter, expected] of [
      ['result of roots/list', '"uri":"file:///tmp/inspected"'],
      ['logging/setLevel', '"level":"debug"'],
    ] as const) {
      await page.fill('[data-testid="wire-filter"]', filter);
      await page.locator('.wrow', { hasText: expected }).first().click();
      assert.match(await page.locator('[data-testid="wire-detail"]').innerText(), new RegExp(filter));
    }
    await page.fill('[data-testid="wire-filter"]', '');
  });

  it('asks the servers for logs from the level chosen, and shows them from that level up', async () => {
    const levelsFrom = async (after: number) =>
      (await feedAfter(after))
        .filter((e) => e.server === 'mine' && e.payload?.method === 'notifications/message')
        .map((e) => (e.payload as { params: { level: string } }).params.level);
    const logOnce = async () => {
      const before = await lastSeq();
      await chooseTool('mine__logMessages');
      await page.click('[data-testid="call"]');
      await page.locator('[data-testid="result"][data-status="ok"]').waitFor();
      return levelsFrom(before);
    };
    await page.click('[data-tab="Logs"]');
    await page.selectOption('[data-testid="log-level"]', 'warning');
    await page.locator('[data-testid="log-list"]').waitFor();
    await waitForLevel('warning');
    assert.deepEqual(await logOnce(), ['warning', 'error', 'critical', 'alert', 'emergency']);
    await page.click('[data-tab="Logs"]');
    await page
      .locator('.lrow', { hasText: '[warning] A warning message from the everything server' })
      .waitFor();
    await page.selectOption('[data-testid="log-level"]', 'debug');
    await waitForLevel('debug');
    assert.equal((await logOnce()).length, 8, 'every level, debug included');
    await page.click('[data-tab="Logs"]');
    const debugRow = page.locator('.lrow', { hasText: '[debug] A debug message from the everything server' });
    await debugRow.first().waitFor();
    await shot('11b-logs-debug');
    // From "error" up, the page shows no debug message any more, though it has received them.
    const shownAtDebug = Number(await page.locator('[data-testid="log-list"]').getAttribute('data-count'));
    await page.selectOption('[data-testid="log-level"]', 'error');
    await debugRow.first().waitFor({ state: 'detached' });
    await shot('11c-logs-error');
    const shownAtError = Number(await page.locator('[data-testid="log-list"]').getAttribute('data-count'));
    assert.ok(shownAtError < shownAtDebug, `${shownAtError} < ${shownAtDebug}`);
    assert.equal(await page.locator('.lrow', { hasText: '[warning] A warning' }).count(), 0);
    await page.selectOption('[data-testid="log-level"]', 'info');
    await waitForLevel('info');
  });

  it("shows the doctor's report on the broken server, its fault failing", async () => {
    await page.click('[data-tab="Doctor"]');
    await page.click('[data-testid="doctor-broken"]');
    const report = page.locator('[data-testid="doctor-report"]');
    await report.waitFor();
    await shot('12-doctor');
    assert.match(await report.innerText(), /broken: \d+ passed, [1-9]\d* failed/);
    assert.match(await report.locator('.check.fail').first().innerText(), /FAIL/);
  });

  it("fills the wire view and flags the broken server's fault where it happened", async () => {
    // Every server lived through all of the above; the remote one once died of the roots step's notification.
    for (const name of ['mine', 'official', 'broken', 'forms', 'remote'])
      assert.match(await page.locator(`[data-testid="server-${name}"]`).innerText(), /· ready/, name);
    await page.click('[data-tab="Wire"]');
    await page.locator('[data-testid="wire-list"] .wrow').first().waitFor();
    await shot('13-wire');
    const count = Number(await page.locator('[data-testid="wire-list"]').getAttribute('data-count'));
    assert.ok(count > 20, `${count} messages shown`);
    // Each message has its time since the start; each response its latency.
    const answered = page.locator('.wrow.server', { hasText: 'result of' }).first();
    assert.match(await answered.locator('.time').innerText(), /^\+\d+\.\d{3}s$/);
    assert.match(await answered.locator('.lat').innerText(), /^\d+\.\dms$/);
    await page.check('text=faults only');
    const fault = page.locator('.wrow.fault', { hasText: 'response-to-notification' }).first();
    await fault.waitFor();
    assert.match(await fault.innerText(), /broken/);
    const picture = await shot('14-fault', '.wrow.fault');
    assert.ok((await redShare(picture)) > 0.02, 'the fault is drawn in red');
    await fault.click();
    assert.match(
      await page.locator('[data-testid="wire-detail"]').innerText(),
      /notifications must never be answered/,
    );
    await page.uncheck('text=faults only');
    await page.fill('[data-testid="wire-filter"]', 'tools/call');
    const call = page.locator('.wrow', { hasText: 'result of tools/call' }).first();
    await call.click();
    await page.locator('[data-testid="wire-detail"] button', { hasText: 'its request' }).click();
    assert.match(await page.locator('[data-testid="wire-detail"]').innerText(), /"method": "tools\/call"/);
    await page.click('[data-testid="latency-toggle"]');
    const row = page.locator('[data-testid="latency-chart"] tr', { hasText: 'tools/call' }).first();
    await row.waitFor();
    await shot('15-latency');
    const cells = await row.locator('td').allInnerTexts();
    assert.ok(Number(cells[1]) >= 5, `tools/call was counted: ${cells.join(' | ')}`);
    const bar = await row.locator('.bar.p50').boundingBox();
    assert.ok(bar && bar.width > 0, 'the median is drawn as a bar');
  });

  it('refuses a page without the token, another site, and a DNS-rebound name', async () => {
    const url = new URL(address);
    const refused = await browser!.newPage();
    try {
      const bare = await refused.goto(`${url.origin}/`);
      assert.equal(bare?.status(), 401);
      await shot('16-refused-token', undefined, refused);
      assert.match(await refused.innerText('body'), /needs its token/);
      // Another name that resolves here, as after DNS rebinding: the token does not help it.
      const rebound = await refused.goto(
        `http://${REBOUND}:${url.port}/?token=${url.searchParams.get('token')}`,
      );
      assert.equal(rebound?.status(), 421);
      await shot('16-refused-host', undefined, refused);
      assert.match(await refused.innerText('body'), /the Host header must be one of 127\.0\.0\.1:/);
      // Another site's page (its own origin) that knows the token and tries what CVE-2025-49596 did:
      // start a command. As a simple form-like post (no preflight), and as JSON (a preflight first).
      const site = createServer((_request, response) => response.end('<p>another site</p>'));
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      await refused.goto(`http://${REBOUND}:${(site.address() as AddressInfo).port}/`);
      site.close();
      const statuses: number[] = [];
      refused.on('response', (r) => {
        if (r.url().includes('/api/add')) statuses.push(r.status());
      });
      const tried = await refused.evaluate(
        async ({ origin, token }) => {
          const body = JSON.stringify({ mcpServers: { evil: { command: 'touch', args: ['/tmp/pwned'] } } });
          const outcomes: string[] = [];
          for (const init of [
            { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body },
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-mcpwire-token': token },
              body,
            },
          ])
            outcomes.push(
              await fetch(`${origin}/api/add?token=${token}`, init as never).then(
                (r) => `answered ${r.status}`,
                (e: Error) => `failed: ${e.message}`,
              ),
            );
          return outcomes;
        },
        { origin: url.origin, token: url.searchParams.get('token')! },
      );
      assert.equal(tried[1]?.startsWith('failed'), true, tried.join('; '));
      assert.ok(statuses.length > 0 && statuses.every((s) => s === 403), statuses.join(','));
    } finally {
      await refused.close();
    }
    // Nothing is served on this machine's other addresses: the browser finds no one listening there.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    assert.ok(outside, 'this machine has no non-loopback IPv4 address to try');
    const elsewhere = await browser!.newPage();
    try {
      const error = await elsewhere
        .goto(`http://${outside.address}:${url.port}/?token=${url.searchParams.get('token')}`)
        .then(
          () => 'answered',
          (e: Error) => e.message,
        );
      assert.match(error, /ERR_CONNECTION_REFUSED/);
    } finally {
      await elsewhere.close();
    }
    await page.click('[data-tab="Servers"]');
    assert.equal(await page.locator('tr[data-server="evil"]').count(), 0, 'no server was added');
    const foreign = requested.filter((r) => !r.startsWith(`${url.origin}/`) && !r.startsWith('data:'));
    assert.deepEqual(foreign, [], 'the page asked for nothing but its inspector');
    assert.ok(requested.some((r) => r.startsWith(`${url.origin}/app.js`)));
    assert.equal(existsSync('/tmp/pwned'), false);
  });
});

/** The feed after a seq, as the page reads it with its token. */
async function feedAfter(
  after: number,
): Promise<Array<{ seq: number; server: string; payload?: { method?: string } }>> {
  return (await page.evaluate(
    `fetch('/api/feed?after=${after}&limit=50000' + location.search.replace('?', '&')).then((r) => r.json())`,
  )) as Array<{ seq: number; server: string; payload?: { method?: string } }>;
}

async function lastSeq(): Promise<number> {
  const state = (await page.evaluate(`fetch('/api/state' + location.search).then((r) => r.json())`)) as {
    lastSeq: number;
  };
  return state.lastSeq;
}

/** Until the session says the servers were asked for `level` (the page's state confirms it). */
async function waitForLevel(level: string): Promise<void> {
  await page.waitForFunction(
    `fetch('/api/state' + location.search).then((r) => r.json()).then((s) => s.level === '${level}')`,
  );
}

/** The values a datalist offers. */
function values(options: ReturnType<Page['locator']>): Promise<string[]> {
  return options.evaluateAll((list) => list.map((o) => (o as unknown as { value: string }).value));
}

/** The label of the option a select shows. */
function selectedLabel(selector: string): Promise<string> {
  return page.locator(selector).evaluate((s) => {
    const select = s as unknown as { selectedIndex: number; options: Array<{ text: string }> };
    return select.options[select.selectedIndex]?.text ?? '';
  });
}

/** How many messages of a method the inspector's feed holds, asked from the page with its token. */
async function wireCount(method: string): Promise<number> {
  const feed = (await page.evaluate(
    `fetch('/api/feed?after=0&limit=50000' + location.search.replace('?', '&')).then((r) => r.json())`,
  )) as Array<{ payload?: { method?: string } }>;
  return feed.filter((e) => e.payload?.method === method).length;
}
