// Drives the reference page in a real Chromium (playwright-core, the machine's browser) through one scripted flow
// and fails on any console error, page error, failed request or HTTP error answer. Run by ReferencePageBrowserTest
// against a local stack whose scripted model plays the flow's conversation.
//
// usage: node test/reference-page.mjs <builder|refusals|input|demo|resume|secret> <page-url> <screenshot-dir>
// env:   CHROMIUM (default /usr/bin/chromium)
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [flow, url, shots] = process.argv.slice(2);
const TIMEOUT = 30_000;
mkdirSync(shots, { recursive: true });
for (const old of readdirSync(shots).filter((f) => f.startsWith(`${flow}-`) && f.endsWith('.png'))) {
  rmSync(join(shots, old)); // this run's screenshots only
}

const profile = mkdtempSync(join(tmpdir(), 'tablewright-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  headless: true,
  viewport: { width: 1440, height: 900 },
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});
const page = context.pages()[0] ?? await context.newPage();
page.setDefaultTimeout(TIMEOUT);
const problems = [];
page.on('console', (m) => m.type() === 'error' && problems.push(`console error: ${m.text()}`));
page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
// the flows' own reloads: a read still in flight when the page goes away is cut by the browser, and the reloaded page
// reads again (e.g. the conversation list, refreshed as a turn ends)
let reloads = 0;
const startedBefore = new WeakMap();
page.on('request', (r) => startedBefore.set(r, reloads));
async function reload() {
  reloads++;
  await page.reload();
}
page.on('requestfailed', (r) => {
  const aborted = r.failure()?.errorText === 'net::ERR_ABORTED';
  // the resume flow lets go of a turn's stream on purpose (a reload, Stop): the turn runs on without it
  const letGo = aborted && ((flow === 'resume' && r.method() === 'POST' && new URL(r.url()).pathname === '/chat')
    || (r.method() === 'GET' && startedBefore.get(r) < reloads));
  if (!letGo) problems.push(`request failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`);
});
page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`));
// a turn's POST /chat ends at [DONE], after the page already shows its end (the answer is stored in between): a
// reload of the builder flow waits for it, so it never cuts a turn's response short
let chatsInFlight = 0;
const isChat = (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/chat';
page.on('request', (r) => { if (isChat(r)) chatsInFlight++; });
page.on('requestfinished', (r) => { if (isChat(r)) chatsInFlight--; });
page.on('requestfailed', (r) => { if (isChat(r)) chatsInFlight--; });
async function chatsSettled() {
  for (const until = Date.now() + TIMEOUT; chatsInFlight > 0 && Date.now() < until;) await page.waitForTimeout(50);
}

const steps = [];
async function step(name, run) {
  await run();
  await page.screenshot({ path: join(shots, `${flow}-${String(steps.length + 1).padStart(2, '0')}-${name}.png`) });
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
const send = async (text) => {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
};
const builder = () => page.getByRole('region', { name: 'Table builder' });

const flows = {
  async builder() {
    await step('empty', async () => {
      await page.goto(url);
      await expect(page.getByRole('textbox', { name: 'Message' }), 'the Message box');
    });
    await step('preview', async () => {
      await send('Show stock levels with their warehouse name');
      await expect(page.getByText('Let me look at the stock levels table first.'), 'the streamed text');
      const card = page.getByRole('article', { name: /^Preview Stock levels with the name of their warehouse/ });
      await expect(card, 'the preview card');
      await expect(card.getByRole('cell', { name: 'Berlin Central' }), 'sample rows in the preview card');
      await expect(page.getByText(/Here is the preview/), 'the text after the preview');
      const columns = builder().getByRole('region', { name: 'Columns' });
      for (const header of ['Item', 'Quantity', 'Name']) {
        await expect(columns.getByRole('listitem').filter({ hasText: header }).filter({ hasText: 'pending add' }), `pending column ${header}`);
      }
      await expect(builder().getByRole('region', { name: 'Joins' }).getByText('pending add'), 'the pending join');
      await expect(builder().getByRole('table', { name: /Live table/ }).getByRole('cell', { name: 'Berlin Central' }), "the live table's sample rows");
      await expect(page.locator('.tool.output-available [data-tool], .tool.output-available code').filter({ hasText: 'apply_join_change' }), 'the tool steps');
    });
    await step('reloaded-before-answer', async () => {
      // the open approval survives a reload: the stored message still asks, and the card still offers Accept
      await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' }); // the turn has ended ...
      await expect(page.getByRole('navigation', { name: 'Conversations' })
        .getByRole('button', { name: 'Rename Show stock levels with their warehouse name' }), 'the list after the turn'); // ... and is listed
      await chatsSettled();
      await reload();
      await expect(page.getByRole('article', { name: /^Preview / }).getByRole('button', { name: 'Accept' }), 'Accept after a reload');
    });
    await step('accepted', async () => {
      const card = page.getByRole('article', { name: /^Preview / });
      await card.getByRole('button', { name: 'Accept' }).click();
      // answered through the chat's tool approval: the same assistant message goes on
      await expect(page.getByRole('listitem').filter({ has: card }).getByText('Saved: version 1.'), 'the answer goes on in the same message');
      await expect(card.getByText('Accepted: version 1'), 'the card accepted');
      await expect(builder().getByText(/version 1\b/), 'version 1 in the builder');
      check(await builder().getByText('pending add').count() === 0, 'nothing is pending once accepted');
    });
    await step('reloaded', async () => {
      await chatsSettled();
      await reload();
      await expect(page.getByText('Let me look at the stock levels table first.'), 'the conversation after a reload');
      await expect(builder().getByText(/version 1\b/), 'version 1 after a reload');
      await expect(page.getByRole('article', { name: /^Preview / }).getByText('Accepted'), 'the card accepted after a reload');
    });
    await step('streaming', async () => {
      await send('Highlight the quantity column');
      // the scripted model pauses after its first words: they are shown while the turn still runs, beside Stop
      await expect(page.getByText('Let me check the columns.'), 'text as it streams');
      await expect(page.getByRole('button', { name: 'Stop' }), 'Stop while streaming');
    });
    await step('client-tool', async () => {
      await expect(page.getByText('I highlighted the Quantity column.'), "the answer after the browser's tool ran");
      await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
      await expect(builder().locator('li.highlighted[data-column="quantity"]'), 'the highlighted column');
    });
    await step('update', async () => {
      await send('Drop the item column');
      const card = page.getByRole('article', { name: /^Preview Stock levels without the item/ });
      await expect(card.getByText('update of version 1'), 'an update of version 1');
      await expect(card.getByRole('definition').filter({ hasText: '− item_id' }), "the update's diff");
      await expect(builder().getByRole('region', { name: 'Columns' }).getByRole('listitem')
        .filter({ hasText: 'Item' }).filter({ hasText: 'pending removal' }), 'the column pending removal');
      await expect(page.getByText('Here is the update: the item column goes.'), 'the text after the update');
    });
    await step('update-accepted', async () => {
      await page.getByRole('article', { name: /^Preview Stock levels without the item/ }).getByRole('button', { name: 'Accept' }).click();
      await expect(builder().getByText(/version 2\b/), 'version 2 in the builder');
      await expect(page.getByText('Saved: version 2.'), 'the answer goes on after the approval');
      check(await builder().getByRole('region', { name: 'Columns' }).getByText('Item', { exact: true }).count() === 0, 'the item column is gone');
    });
    await step('conversations', async () => {
      const list = page.getByRole('navigation', { name: 'Conversations' });
      await list.getByRole('button', { name: 'Rename Show stock levels with their warehouse name' }).click();
      await list.getByRole('textbox', { name: 'Title' }).fill('Stock by warehouse');
      await list.getByRole('button', { name: 'Save' }).click();
      const renamed = list.getByRole('button', { name: 'Stock by warehouse', exact: true });
      await expect(renamed, 'the renamed conversation');
      await list.getByRole('button', { name: 'New chat' }).click();
      check(await page.getByText('Let me look at the stock levels table first.').count() === 0, 'a new chat is empty');
      await renamed.click();
      await expect(page.getByText('Let me look at the stock levels table first.'), 'the conversation opened from the list');
    });
    await step('deleted', async () => {
      const list = page.getByRole('navigation', { name: 'Conversations' });
      await list.getByRole('button', { name: 'Delete Stock by warehouse' }).click();
      await list.getByRole('button', { name: 'Stock by warehouse', exact: true }).waitFor({ state: 'detached' });
      check(await page.getByText('Let me look at the stock levels table first.').count() === 0, 'deleting the open conversation starts a new chat');
    });
  },

  async refusals() {
    await step('rejected', async () => {
      await page.goto(url);
      await send('Show stock levels with their warehouse name');
      const card = page.getByRole('article', { name: /^Preview Stock levels with the name of their warehouse/ });
      await expect(card, 'the preview card');
      await expect(page.getByText(/Here is the preview/), 'the text after the preview');
      await card.getByRole('button', { name: 'Reject' }).click();
      await expect(card.getByText('Rejected'), 'the card says the preview was rejected');
      await expect(page.getByRole('listitem').filter({ has: card }).getByText('Understood: nothing was saved.'),
        'the denied approval: the same message goes on');
      check(await card.getByRole('button', { name: 'Accept' }).count() === 0, 'no Accept once rejected');
    });
    await step('invalid', async () => {
      await send('Only quantities containing 5');
      const errors = page.getByRole('article', { name: 'Validation errors' });
      await expect(errors, 'the validation errors card');
      await expect(errors.getByRole('listitem').filter({ hasText: 'operator' }), 'the field and its message in the card');
      await expect(page.getByText(/I could not make this change valid/), 'the explanation after the card');
    });
  },

  // the offline demo model (no script): the README's conversation, each preview an update of the last accepted version
  async demo() {
    await step('note', async () => {
      await page.goto(url);
      await expect(page.getByRole('note', { name: 'Model' }).getByText('Offline demo model'), 'the offline demo model note');
    });
    await step('built', async () => {
      await send('Show stock levels with their warehouse name');
      await expect(page.getByText('Let me look up the stock levels table.'), 'the streamed text');
      const card = page.getByRole('article', { name: /^Preview Stock levels with their warehouse name/ });
      await expect(card.getByRole('cell', { name: 'Berlin Central' }), 'sample rows in the preview card');
      await expect(page.getByText(/Here is the preview, a new table/), 'the text after the preview');
      await expect(builder().getByRole('region', { name: 'Joins' }).getByText('pending add'), 'the pending join');
      await card.getByRole('button', { name: 'Accept' }).click();
      await expect(builder().getByText(/version 1\b/), 'version 1 in the builder');
      await expect(page.getByText(/^Saved as version 1\./), 'the demo model goes on after the approval');
    });
    await step('filtered', async () => {
      await send('Only show quantities above 100');
      const card = page.getByRole('article', { name: /^Preview Only rows with quantity above 100/ });
      await expect(card.getByText('update of version 1'), 'an update of version 1');
      await expect(builder().getByRole('region', { name: 'Filters' }).getByText('pending add'), 'the pending filter');
      await expect(page.getByText(/Here is the preview, an update of version 1/), 'the text after the preview');
      await card.getByRole('button', { name: 'Accept' }).click();
      await expect(builder().getByText(/version 2\b/), 'version 2 in the builder');
    });
    await step('sorted', async () => {
      await send('Sort by quantity descending');
      const card = page.getByRole('article', { name: /^Preview Sorted by quantity, descending/ });
      await expect(card.getByText('update of version 2'), 'an update of version 2');
      await expect(builder().getByRole('region', { name: 'Sort' }).getByText('pending add'), 'the pending sort');
      await expect(page.getByText(/Here is the preview, an update of version 2/), 'the text after the preview');
    });
    await step('not-understood', async () => {
      await send('What is the weather in Berlin?');
      await expect(page.getByText(/I did not understand that\. I am the offline demo model/), 'a plain answer about what it is');
    });
  },

  async input() {
    await step('asked', async () => {
      await page.goto(url);
      await send('Show the returns with their amount');
      const form = page.getByRole('form', { name: /^Input for search_database_schema/ });
      await expect(form, 'the input form');
      await expect(form.getByRole('combobox', { name: /database/i }), 'the database field');
      await expect(form.getByRole('button', { name: 'Submit' }), 'Submit');
      await expect(form.getByRole('button', { name: 'Cancel' }), 'Cancel');
    });
    await step('continued', async () => {
      const form = page.getByRole('form', { name: /^Input for search_database_schema/ });
      await form.getByRole('combobox', { name: /database/i }).selectOption('staging');
      const remember = form.getByRole('checkbox', { name: 'Remember for this conversation' });
      check(await remember.isChecked() && await remember.isEnabled(), '"Remember for this conversation" is offered, ticked');
      const sent = page.waitForRequest((r) => r.url().endsWith('/response') && r.method() === 'POST');
      await form.getByRole('button', { name: 'Submit' }).click();
      const body = (await sent).postDataJSON();
      check(body.remember === true && body.values.database === 'staging', `the submit sends the choice: ${JSON.stringify(body)}`);
      await expect(page.getByText('Staging has the returns table.'), 'the turn continuing after Submit');
      check(await page.getByRole('form', { name: /^Input for / }).count() === 0, 'the form hides once the tool has its output');
      await expect(page.locator('.tool.output-available').filter({ hasText: 'search_database_schema' }), 'the search ran');
    });
  },

  async resume() {
    const answer = () => page.locator('.message.assistant .text');
    await step('streaming', async () => {
      await page.goto(url);
      await send('Tell me about the warehouses');
      await expect(answer().filter({ hasText: 'wh2 ' }), 'the first words as they stream');
    });
    await step('reloaded-mid-answer', async () => {
      check(await answer().filter({ hasText: 'wh39' }).count() === 0, 'the reload comes before the answer ends');
      await reload();
      await expect(page.getByText('Tell me about the warehouses'), 'the question after the reload');
      // the same answer goes on from where the server is, its start replayed, to its end
      await expect(answer().filter({ hasText: /^wh0 wh1 .* wh39 $/ }), 'the whole answer, continued after the reload');
      await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
      check(await page.locator('.message.assistant').count() === 1, 'one answer, not two');
    });
    await step('stopped', async () => {
      await send('Tell me more');
      await expect(answer().filter({ hasText: 'more2 ' }), 'the second answer streaming');
      const stopped = page.waitForRequest((r) => r.url().endsWith('/stop') && r.method() === 'POST');
      await page.getByRole('button', { name: 'Stop' }).click();
      check((await (await stopped).response())?.status() === 204, 'the stop route answers 204');
      await page.getByRole('button', { name: 'Stop' }).waitFor({ state: 'detached' });
    });
    await step('stopped-after-reload', async () => {
      await reload();
      await expect(page.getByText('Stopped', { exact: true }), 'the answer marked stopped, as stored');
      await expect(answer().filter({ hasText: 'more2 ' }), 'the partial answer kept');
      check(await answer().filter({ hasText: 'more59' }).count() === 0, 'the answer was cut short');
    });
  },
  // an MCP client sent its user here for a secret (URL-mode elicitation); the page's URL names the question
  async secret() {
    await step('question', async () => {
      await page.goto(url);
      const question = page.getByRole('region', { name: 'A question from your MCP client' });
      await expect(question.getByRole('form', { name: /^Input for / }), 'the question\'s form');
      await question.getByLabel('Database password').fill('correct horse battery');
    });
    await step('submitted', async () => {
      const submitted = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/response'));
      await page.getByRole('button', { name: 'Submit' }).click();
      check((await submitted).status() === 200, 'the answer is accepted');
      await expect(page.getByText('Submitted; the assistant continues'), 'the form says it went');
    });
  },
};

let failure;
try {
  await flows[flow]();
} catch (e) {
  failure = e;
  await page.screenshot({ path: join(shots, `${flow}-failure.png`) }).catch(() => {});
}
await context.close();
rmSync(profile, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ flow, steps, problems, failure: failure?.message ?? null }) + '\n');
process.exit(failure || problems.length ? 1 : 0);
