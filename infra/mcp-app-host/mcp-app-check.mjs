// Plays an MCP Apps host in a real Chromium (playwright-core, the machine's browser) against the local stack's /mcp:
// host.js (the official AppBridge over PostMessageTransport, and an MCP client) is bundled with esbuild and served
// on the stack's own origin (so /mcp is same-origin), and each flow drives the preview view through it. Fails on any
// console error (a CSP violation included), page error, failed request, HTTP error answer or request to anywhere
// but the host page and /mcp. Run by McpAppBrowserTest, which checks the server's side of what the flow did.
//
// usage: node mcp-app-check.mjs <keep|discard|waiting|hostile>[-2026] <stack-url> <screenshot-dir>
//        (-2026: the same flow with the client pinned to 2026-07-28, stateless, instead of a 2025 session)
// env:   MCP_TOKEN (required), CHROMIUM (default /usr/bin/chromium), CONFIG_ID (discard: the config kept before)
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const [flow, stackUrl, shots] = process.argv.slice(2);
const PINNED = '-2026';
const pin = flow.endsWith(PINNED) ? '2026-07-28' : undefined;
const flowName = pin ? flow.slice(0, -PINNED.length) : flow;
const token = process.env.MCP_TOKEN;
const TIMEOUT = 30_000;
const origin = new URL(stackUrl).origin;
const hostPage = `${origin}/__mcp-app-host/`;
const hostScript = `${origin}/__mcp-app-host/host.js`;
mkdirSync(shots, { recursive: true });
for (const old of readdirSync(shots).filter((f) => f.startsWith(`mcp-app-${flow}-`) && f.endsWith('.png'))) {
  rmSync(join(shots, old)); // this run's screenshots only
}

const bundle = (await build({
  entryPoints: [join(dirname(fileURLToPath(import.meta.url)), 'host.js')],
  bundle: true, write: false, format: 'esm', platform: 'browser', target: 'chrome120', logLevel: 'silent',
})).outputFiles[0].text;

const page_ = (theme) => `<!doctype html>
<html lang="en" data-theme="${theme}"><head><meta charset="utf-8"><title>MCP Apps test host</title>
<style>
  :root { --bg: #f4f5f8; --fg: #1d2330; --card: #ffffff; --line: #dde1e8; --muted: #667085; --user: #e4ecff; }
  :root[data-theme="dark"] { --bg: #121418; --fg: #e6e9ef; --card: #1b1e24; --line: #333a45; --muted: #a3abb8; --user: #263252; }
  body { margin: 0; background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, sans-serif; }
  header { padding: 10px 16px; border-bottom: 1px solid var(--line); color: var(--muted); }
  #transcript { padding: 8px 16px; max-width: 860px; }
  .turn { margin: 12px 0; }
  .user { background: var(--user); padding: 6px 10px; border-radius: 8px; display: inline-block; margin: 0 0 8px; }
  .call { color: var(--muted); font-size: 12px; margin: 0 0 4px; }
  iframe { display: block; width: 100%; height: 120px; border: 1px solid var(--line); border-radius: 8px; background: var(--card); }
</style></head>
<body><header>A test MCP Apps host · server: Tablewright (the local stack's /mcp)</header><main id="transcript"></main>
<script type="module" src="${hostScript}"></script></body></html>`;

const profile = mkdtempSync(join(tmpdir(), 'tablewright-mcp-app-'));
const narrow = flowName === 'discard';
const theme = flowName === 'discard' ? 'dark' : 'light';
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: narrow ? { width: 400, height: 900 } : { width: 900, height: 820 },
  colorScheme: theme,
  reducedMotion: 'reduce', // the view's waiting spinner holds still: the same screenshot every run
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] ?? await context.newPage();
page.setDefaultTimeout(TIMEOUT);
const problems = [];
// The client's GET /mcp (a stream for server messages) answered 405 is the transport's "no such stream" (the
// server opens none, docs/mcp.md): expected, so neither it nor the browser's console line about it is a problem.
const noServerStream = (method, url, status) => method === 'GET' && url === `${origin}/mcp` && status === 405;
page.on('console', (m) => m.type() === 'error'
  && !(m.location()?.url === `${origin}/mcp` && m.text().includes('405'))
  && problems.push(`console error: ${m.text()}`));
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
page.on('requestfailed', (r) => problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
page.on('response', (r) => r.status() >= 400 && !noServerStream(r.request().method(), r.url(), r.status())
  && problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`));
page.on('request', (r) => {
  const u = r.url();
  if (u !== hostPage && u !== hostScript && u !== `${origin}/mcp`) problems.push(`unexpected request: ${r.method()} ${u}`);
});
await page.route(hostPage, (route) => route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: page_(theme) }));
await page.route(hostScript, (route) => route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: bundle }));

const steps = [];
async function step(name, run) {
  await run();
  await page.screenshot({ path: join(shots, `mcp-app-${flow}-${String(steps.length + 1).padStart(2, '0')}-${name}.png`), fullPage: true });
  steps.push(name);
}
const expect = async (locator, what) => {
  try {
    await locator.first().waitFor({ state: 'visible' });
  } catch (e) {
    throw new Error(`not shown: ${what} (${e.message.split('\n')[0]})`);
  }
};
const check = (ok, what) => { if (!ok) throw new Error(what); };
const host = (fn, ...args) => page.evaluate(([name, a]) => window.host[name](...a), [fn, args]);
const hostLog = () => page.evaluate(() => window.hostLog);
/** The view in the i-th iframe, and its document for questions a locator does not answer. */
const view = (i = 0) => page.frameLocator('iframe').nth(i);
const viewFrame = (i = 0) => page.frames().filter((f) => f !== page.mainFrame())[i];

async function open(ui = true) {
  await page.goto(hostPage);
  await page.waitForFunction(() => !!window.host);
  const connected = await host('connect', `${origin}/mcp`, token, ui, pin);
  const tools = await host('listTools');
  return { connected, tools };
}

/** The README's first table, built as a model would: columns, then the warehouse join. */
async function stockLevels() {
  const base = { name: 'Stock levels by warehouse', data_source: [{ schema: 'inventory', source: 'stock_levels', select: { columns: [] } }],
    visual_settings: { columns: {} } };
  const columns = await host('callTool', 'apply_column_change', { config: base, operation: 'add',
    columns: [{ name: 'item_id', header: 'Item' }, { name: 'quantity', header: 'Quantity' }] });
  check(!columns.isError, `apply_column_change: ${columns.text}`);
  const joined = await host('callTool', 'apply_join_change', { config: columns.structuredContent.config, operation: 'add',
    join: { table: 'warehouses', schema: 'core', relationship_from: 'stock_levels.warehouse_id', relationship_to: 'warehouses.id', columns_to_add: ['name'] } });
  check(!joined.isError, `apply_join_change: ${joined.text}`);
  return joined.structuredContent.config;
}

const report = {};

const flows = {
  // tools/list → resources/read → srcdoc iframe → handshake → input and result → rows → Keep → saved as version 1
  async keep() {
    let shown;
    await step('preview', async () => {
      const { connected, tools } = await open(true);
      report.serverCapabilities = connected.serverCapabilities;
      report.protocolVersion = connected.protocolVersion;
      report.tools = tools.map((t) => ({ name: t.name, ui: t._meta?.ui ?? null }));
      const config = await stockLevels();
      shown = await host('show', 'preview_table_config', { config, description: 'Stock levels with the name of their warehouse' },
        { prompt: 'Show stock levels with their warehouse name' });
      report.shown = shown;
      check(shown.sandbox === 'allow-scripts', `sandbox is ${shown.sandbox}`);
      check(shown.usesSrcdoc, 'the view is loaded from srcdoc');
      const v = view();
      await expect(v.getByRole('heading', { name: 'Stock levels by warehouse' }), "the config's name");
      for (const header of ['Item', 'Quantity', 'Name']) {
        await expect(v.getByRole('columnheader', { name: header, exact: true }), `the column header ${header}`);
      }
      await expect(v.getByRole('cell', { name: 'Berlin Central' }).first(), 'a sample row');
      await expect(v.getByText('A new table config'), 'that it creates a config');
      await expect(v.getByRole('listitem', { name: 'added: warehouses' }), 'the join in the diff');
      report.frameResources = await viewFrame().evaluate(() => ({
        externalScripts: document.querySelectorAll('script[src]').length,
        stylesheets: document.querySelectorAll('link').length,
        images: document.querySelectorAll('img').length,
      }));
    });
    await step('kept', async () => {
      const v = view();
      // by keyboard: the button is reached and pressed as a keyboard user would
      await v.getByRole('button', { name: 'Keep' }).focus();
      await page.keyboard.press('Enter');
      await expect(v.getByText(/^Saved as version 1\.$/), '"Saved as version 1."');
      check(await v.getByRole('button', { name: 'Keep' }).isDisabled(), 'Keep is disabled once kept');
      await v.getByRole('button', { name: 'Keep' }).click({ force: true }); // a second click: nothing more is sent
      await page.waitForFunction(() => window.hostLog.modelContext.length > 0);
    });
    const log = await hostLog();
    report.viewCalls = log.viewCalls;
    report.refusedCalls = log.refusedCalls;
    report.modelContext = log.modelContext;
    report.events = log.events;
  },

  // an update of the kept config (a column removed), in dark, 400 px wide, on a host that takes ui/message only
  async discard() {
    let shown;
    await step('preview', async () => {
      await open(true);
      const saved = await host('callTool', 'get_table_config', { config_id: process.env.CONFIG_ID });
      check(!saved.isError, `get_table_config: ${saved.text}`);
      const stored = JSON.parse(saved.text);
      const config = { ...stored.config, id: stored.configId, version: stored.version };
      const removed = await host('callTool', 'apply_column_change', { config, operation: 'remove', columns: [{ name: 'quantity' }] });
      check(!removed.isError, `apply_column_change: ${removed.text}`);
      shown = await host('show', 'preview_table_config', { config: removed.structuredContent.config, description: 'Without the quantity' },
        { prompt: 'Drop the quantity column', theme: 'dark', hostCapabilities: { serverTools: {}, message: { text: {} } } });
      report.shown = shown;
      const v = view();
      await expect(v.getByText('An update of saved version 1'), 'an update of version 1');
      await expect(v.getByRole('listitem', { name: 'removed: quantity' }), 'the removed column in the diff');
      check(await v.getByRole('columnheader', { name: 'Quantity' }).count() === 0, 'the removed column is not in the rows');
      report.theme = await viewFrame().evaluate(() => document.documentElement.dataset.theme);
    });
    await step('discarded', async () => {
      const v = view();
      await v.getByRole('button', { name: 'Discard' }).click();
      await expect(v.getByText('Discarded: nothing was saved.'), 'the discard said');
      await page.waitForFunction(() => window.hostLog.messages.length > 0);
    });
    const log = await hostLog();
    report.viewCalls = log.viewCalls;
    report.messages = log.messages;
    report.modelContext = log.modelContext;
  },

  // the view loaded, the handshake done, and no result ever sent: a waiting state, not a blank frame
  async waiting() {
    await step('waiting', async () => {
      await open(true);
      report.shown = await host('show', 'preview_table_config', {}, { prompt: 'Show me the orders', withholdResult: true });
      await expect(view().getByRole('status').filter({ hasText: 'Waiting for the preview' }), 'the waiting state');
    });
    report.events = (await hostLog()).events;
  },

  // sample cells and a header holding markup show as characters and run nothing
  async hostile() {
    await step('preview', async () => {
      await open(true);
      const config = { name: 'Customer notes', data_source: [{ schema: 'sales', source: 'customer_notes',
        select: { columns: [{ name: 'id' }, { name: 'note' }] } }],
      visual_settings: { columns: { id: { header: 'ID' }, note: { header: '<img src=x onerror="parent.postMessage(\'pwned\',\'*\')">' } } } };
      report.shown = await host('show', 'preview_table_config', { config }, { prompt: 'Show the customer notes' });
      const v = view();
      await expect(v.getByRole('cell', { name: /^<img src=x onerror=/ }), 'the <img> cell as text');
      await expect(v.getByRole('cell', { name: /<\/script>/ }), 'the </script> cell as text');
      await expect(v.getByRole('columnheader', { name: /^<img src=x/ }), 'the header as text');
      report.frameResources = await viewFrame().evaluate(() => ({
        images: document.querySelectorAll('img').length,
        scripts: document.querySelectorAll('script').length,
      }));
    });
    // whatever a cell could run would have run by now: the view is rendered; a round trip to the host and back
    await host('listTools');
    report.hostile = (await hostLog()).hostile;
    report.pwned = await page.evaluate(() => window.pwned ?? null);
  },
};

let failure;
try {
  check(typeof token === 'string' && token.length > 0, 'MCP_TOKEN is required');
  check(typeof flows[flowName] === 'function', `no flow ${flow}`);
  await flows[flowName]();
} catch (e) {
  failure = e;
  await page.screenshot({ path: join(shots, `mcp-app-${flow}-failure.png`), fullPage: true }).catch(() => {});
}
await context.close();
rmSync(profile, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ flow, steps, problems, failure: failure?.message ?? null, report }) + '\n');
process.exit(failure || problems.length ? 1 : 0);
