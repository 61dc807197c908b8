import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, chromiumPath, launchChromium, screenshot, signIn } from './inspector-browser';
import { buildInspector, hostileText, startInspectorFixture, startPaperclipPage, type InspectorFixture } from './inspector-fixture';

const title = chromiumAvailable ? 'inspector in Chromium' : `inspector in Chromium (skipped: no browser at ${chromiumPath}; .ci/run installs it)`;

describe.skipIf(!chromiumAvailable)(title, { timeout: 90_000 }, () => {
  let built: string;
  let fixture: InspectorFixture;
  let paperclip: Awaited<ReturnType<typeof startPaperclipPage>>;
  let browser: Browser;
  let operator: BrowserContext;
  let page: Page;
  const requested: string[] = [];
  const pageErrors: string[] = [];

  const acme = (path: string) => `${fixture.url}/#/acme/${path}`;
  const acmeAs = { kind: 'company', companyId: 'acme', userId: 'check', role: 'admin' } as const;

  beforeAll(async () => {
    built = mkdtempSync(join(tmpdir(), 'memplane-inspector-build-'));
    [, paperclip, browser] = await Promise.all([buildInspector(built), startPaperclipPage(), launchChromium()]);
    fixture = await startInspectorFixture(built);
    operator = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    operator.setDefaultTimeout(20_000);
    operator.on('request', (request) => requested.push(request.url()));
    page = await operator.newPage();
    // A script error in the page fails the test it happened in (see afterEach).
    page.on('pageerror', (error) => pageErrors.push(error.message));
    // So does anything the server's content security policy blocked, and React's development build.
    page.on('console', (message) => {
      if (/Content Security Policy|React DevTools/.test(message.text())) pageErrors.push(message.text());
    });
    // Each test below starts signed in as the operator, with the backlink templates set through Settings.
    await signIn(page, fixture.url, fixture.tokens.operator);
    await page.goto(acme('settings'));
    await page.getByLabel('Issue link template').fill(`${paperclip.url}/{companyId}/issues/{issueId}`);
    await page.getByLabel('Comment link template').fill(`${paperclip.url}/{companyId}/issues/{issueId}#comment-{commentId}`);
    await page.getByRole('button', { name: 'Save templates' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  }, 180_000);

  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await fixture?.close();
    await paperclip?.close();
    if (built !== undefined) rmSync(built, { recursive: true, force: true });
  });

  it('signs in with a token kept in sessionStorage, and refuses an unknown one', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    await fresh.goto(fixture.url);
    await screenshot(fresh, 'sign-in');
    await fresh.getByLabel('Token').fill('mps_not-a-real-token');
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await fresh.getByRole('alert').filter({ hasText: 'SERVER_UNAUTHENTICATED' }).waitFor();
    expect(await fresh.evaluate(() => sessionStorage.length)).toBe(0);

    await fresh.getByLabel('Token').fill(fixture.tokens.operator);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    await fresh.getByRole('navigation', { name: 'Pages' }).waitFor();
    expect(await fresh.evaluate(() => sessionStorage.getItem('memplane.inspector.token'))).toBe(fixture.tokens.operator);
    expect(await fresh.evaluate(() => JSON.stringify(localStorage))).not.toContain(fixture.tokens.operator);
    expect(await context.cookies()).toEqual([]);
    expect(fresh.url()).not.toContain(fixture.tokens.operator);
    // An operator of every company sees each company the server knows.
    expect(await fresh.getByLabel('Company', { exact: true }).locator('option').allTextContents()).toEqual(['acme', 'globex']);
    // The token dies with the tab: a new tab of the same browser asks again.
    const another = await context.newPage();
    await another.goto(fixture.url);
    await another.getByLabel('Token').waitFor();
    await context.close();
  });

  it('refuses an agent’s token at sign-in with the reason, and drops one kept in the tab', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    fresh.on('pageerror', (error) => pageErrors.push(error.message));
    await fresh.goto(fixture.url);
    await fresh.getByLabel('Token').fill(fixture.tokens.planner);
    await fresh.getByRole('button', { name: 'Sign in' }).click();
    const refusal = fresh.getByRole('alert').filter({ hasText: 'Agent tokens cannot sign in' });
    await refusal.getByText('an agent token cannot use the inspector: it is for operators and company admins', { exact: false }).waitFor();
    // No page, no company picker, no button that would only answer "Not allowed"; nothing kept.
    expect(await fresh.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    expect(await fresh.getByLabel('Company', { exact: true }).count()).toBe(0);
    expect(await fresh.evaluate(() => sessionStorage.length)).toBe(0);
    expect(await fresh.getByLabel('Token').inputValue()).toBe('');
    await screenshot(fresh, 'agent-refused');

    // An agent's token an earlier page kept in this tab is dropped as the page loads, saying why.
    await fresh.evaluate((token) => sessionStorage.setItem('memplane.inspector.token', token), fixture.tokens.planner);
    await fresh.goto(`${fixture.url}/#/acme/operations`);
    await fresh.reload();
    await fresh.getByRole('status').filter({ hasText: 'an agent token cannot use the inspector' }).waitFor();
    await fresh.getByLabel('Token').waitFor();
    expect(await fresh.evaluate(() => sessionStorage.getItem('memplane.inspector.token'))).toBeNull();
    expect(await fresh.getByRole('navigation', { name: 'Pages' }).count()).toBe(0);
    await context.close();
  });

  it('shows each agent’s binding and how it resolved, and disables a binding only after confirmation', async () => {
    await page.goto(acme('bindings'));
    const resolution = page.getByRole('region', { name: 'Active binding per agent' });
    await resolution.getByRole('row', { name: /Company default notes company default/ }).waitFor();
    await resolution.getByRole('row', { name: /agent builder extract agent override/ }).waitFor();
    // An agent without an override, seen in the latest operations, resolves to the company default.
    await resolution.getByRole('row', { name: /agent planner notes company default/ }).waitFor();
    // Capabilities read as words, each with its flag as the tooltip.
    const capabilities = page.getByRole('list', { name: 'Capabilities of notes' });
    await capabilities.getByText('Correction', { exact: true }).waitFor();
    expect(await capabilities.getByTitle('listExtractionJobs', { exact: true }).textContent()).toBe('List extraction jobs');
    for (const text of await capabilities.getByRole('listitem').allTextContents()) expect(text).not.toMatch(/[a-z][A-Z]/);
    await screenshot(page, 'bindings');

    const notes = async () => (await fixture.served.service.control({ actor: acmeAs }).getBinding('notes'))?.enabled;
    await page.getByRole('button', { name: 'Disable notes' }).click();
    await page.getByRole('dialog', { name: 'Disable binding notes?' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await notes()).toBe(true);

    await page.getByRole('button', { name: 'Disable notes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('status').filter({ hasText: 'notes disabled.' }).waitFor();
    expect(await notes()).toBe(false);

    await page.getByRole('button', { name: 'Enable notes' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('status').filter({ hasText: 'notes enabled.' }).waitFor();
    expect(await notes()).toBe(true);

    // Create a binding through the form, then edit it; a config that is not JSON is refused before anything is sent.
    await page.getByRole('button', { name: 'New binding' }).click();
    const editor = page.getByRole('form', { name: 'New binding' });
    const configBox = editor.getByLabel('Config (JSON; secrets as references)');
    await editor.getByLabel('Key').fill('scratch');
    // A hosted provider: its secret setting, and an example holding a reference, never a value.
    await editor.getByLabel('Provider').selectOption('mem0');
    const mem0 = editor.getByRole('region', { name: 'Settings of mem0' });
    expect(await mem0.getByRole('row').filter({ hasText: 'apiKey' }).locator('td').first().textContent()).toBe('secret reference');
    expect(JSON.parse((await mem0.getByLabel('Example config of mem0').textContent()) ?? '')).toEqual({ apiKey: { $secret: { env: 'MEM0_API_KEY' } } });
    // The provider created here: its settings from the server's JSON Schema, then its example put in the config box.
    await editor.getByLabel('Provider').selectOption('memory');
    const settings = editor.getByRole('region', { name: 'Settings of memory' });
    expect(await settings.getByRole('row').filter({ hasText: 'timeoutMs' }).textContent()).toContain('at most 2147483647');
    await configBox.fill('{ not json');
    await editor.getByRole('button', { name: 'Create binding' }).click();
    await page.getByRole('alert').filter({ hasText: 'Config:' }).waitFor();
    // What was typed is replaced only after a confirmation.
    await settings.getByRole('button', { name: 'Use example' }).click();
    await page.getByRole('dialog', { name: 'Replace the config with the memory example?' }).getByRole('button', { name: 'Replace' }).click();
    await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('form[aria-label="New binding"] textarea')?.value.includes('timeoutMs'));
    expect(JSON.parse(await configBox.inputValue())).toEqual({ timeoutMs: 30_000 });
    // The actions end the form: below the config and every checkbox.
    const below = async (upper: Locator, lower: Locator) => {
      const [top, bottom] = [await upper.boundingBox(), await lower.boundingBox()];
      return top !== null && bottom !== null && bottom.y >= top.y + top.height;
    };
    for (const field of ['Enabled', 'Capture finished runs', 'Capture issue comments', 'Capture issue documents']) {
      expect(await below(editor.getByLabel(field, { exact: true }), editor.getByRole('button', { name: 'Create binding' })), field).toBe(true);
      expect(await below(editor.getByLabel(field, { exact: true }), editor.getByRole('button', { name: 'Cancel' })), field).toBe(true);
    }
    expect(await below(configBox, editor.getByRole('button', { name: 'Create binding' }))).toBe(true);
    await editor.getByRole('button', { name: 'Cancel' }).evaluate((button) => button.scrollIntoView({ block: 'end' }));
    await screenshot(page, 'new-binding');
    await editor.getByRole('button', { name: 'Create binding' }).click();
    await page.getByRole('dialog', { name: 'Create binding scratch?' }).getByRole('button', { name: 'Create' }).click();
    await page.getByRole('status').filter({ hasText: 'scratch saved (revision 1).' }).waitFor();
    await page.getByRole('button', { name: 'Edit scratch' }).click();
    await page.getByRole('form', { name: 'Edit scratch' }).getByLabel('Capture issue comments').check();
    await page.getByRole('form', { name: 'Edit scratch' }).getByRole('button', { name: 'Save binding' }).click();
    await page.getByRole('dialog', { name: 'Save binding scratch?' }).getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'scratch saved (revision 2).' }).waitFor();
    const scratch = await fixture.served.service.control({ actor: acmeAs }).getBinding('scratch');
    expect(scratch).toMatchObject({ providerId: 'memory', config: { timeoutMs: 30_000 }, enabled: true, revision: 2, hooks: { issueCommentCapture: true, postRunCapture: false } });
    // Capture hooks read as words too.
    await page.getByRole('row').filter({ hasText: 'scratch' }).filter({ hasText: 'Capture issue comments' }).first().waitFor();

    // Point an agent at another binding, then take the override away again.
    await page.getByLabel('Agent to override').fill('planner');
    await page.getByLabel('Override binding').selectOption('scratch');
    await page.getByRole('button', { name: 'Set override' }).click();
    await page.getByRole('dialog', { name: 'Point agent planner at scratch?' }).getByRole('button', { name: 'Set override' }).click();
    await page.getByRole('status').filter({ hasText: 'Agent planner now uses scratch.' }).waitFor();
    await resolution.getByRole('row', { name: /agent planner scratch agent override/ }).waitFor();
    expect(await fixture.served.service.control({ actor: acmeAs }).resolve('planner')).toMatchObject({ resolvedBy: 'agent', binding: { key: 'scratch' } });
    await page.getByRole('button', { name: 'Remove the override of agent planner' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove override' }).click();
    await resolution.getByRole('row', { name: /agent planner notes company default/ }).waitFor();
    expect(await fixture.served.service.control({ actor: acmeAs }).resolve('planner')).toMatchObject({ resolvedBy: 'company', binding: { key: 'notes' } });

    await page.getByRole('button', { name: 'History of notes' }).click();
    const history = page.getByRole('region', { name: 'History of notes' });
    await history.getByText('binding.updated').first().waitFor();
    expect(await history.getByText('binding.created').count()).toBe(1);
  });

  it('filters operations, pages through them, and opens one from the keyboard', async () => {
    await page.goto(acme('operations'));
    const rows = page.getByRole('region', { name: /^Operations/ }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(25);
    const firstPage = await rows.first().textContent();
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2').waitFor();
    await page.waitForFunction((before) => document.querySelector('tbody tr')?.textContent !== before, firstPage);

    await page.getByLabel('Scope agent').fill('planner');
    await page.getByLabel('Status').selectOption('failed');
    const filtered = page.waitForResponse((response) => response.url().includes('/explorer/operations?') && response.url().includes('status=failed'));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await filtered;
    await page.getByText('Page 1').waitFor();
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5);
    expect(new Set(await rows.locator('.status').allTextContents())).toEqual(new Set(['failed']));

    const link = rows.first().getByRole('link');
    await link.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByRole('region', { name: /^Operation op_/ });
    await detail.getByText('MEMORY_CONFIGURATION: Company "acme" has no enabled binding with key "missing"', { exact: false }).waitFor();
    await detail.getByText('agentId=planner', { exact: false }).waitFor();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('operation-detail-title');
    // At 1280×800 the opened operation clips nothing: the list shows every column, Latency
    // included, and the detail shows all its facts inside the window, with nothing scrolled away.
    const list = page.getByRole('region', { name: /^Operations/ }).locator('.table-scroll');
    const latency = await page.getByRole('columnheader', { name: 'Latency' }).boundingBox();
    const listBox = await list.boundingBox();
    expect(latency !== null && listBox !== null && latency.x + latency.width <= listBox.x + listBox.width && listBox.x + listBox.width <= 1280).toBe(true);
    expect(await list.evaluate((element) => element.scrollWidth - element.clientWidth)).toBe(0);
    const panel = await detail.boundingBox();
    expect(panel !== null && panel.x >= 0 && panel.x + panel.width <= 1280).toBe(true);
    expect(await detail.evaluate((element) => [element.scrollWidth - element.clientWidth, element.scrollHeight - element.clientHeight])).toEqual([0, 0]);
    const facts = await detail.locator('dl.details').boundingBox();
    expect(facts !== null && facts.y >= 0 && facts.y + facts.height <= 800, JSON.stringify(facts)).toBe(true);
    const outside = await detail.evaluate((element) => {
      const edge = element.getBoundingClientRect().right;
      return [...element.querySelectorAll('*')].filter((inner) => inner.getBoundingClientRect().right > edge + 0.5).map((inner) => inner.tagName);
    });
    expect(outside).toEqual([]);
    await screenshot(page, 'operations');
    await page.keyboard.press('Escape');
    await detail.waitFor({ state: 'detached' });
    await link.focus();
    await page.keyboard.press('Enter');
    await detail.waitFor();

    // The link the Paperclip plugin's issue tab opens: the operations of one issue, the filter filled in.
    // The rows of the previous filters stay until the new page has answered and is drawn.
    const issueRows = page.waitForResponse((response) => response.url().includes('/explorer/operations?') && response.url().includes('issueId=ISS-12'));
    await page.goto(acme('operations?issueId=ISS-12'));
    await issueRows;
    await page.waitForFunction(() => !(document.getElementById('operations-title')?.textContent ?? 'loading').includes('loading'));
    expect(await page.getByLabel('Issue', { exact: true }).inputValue()).toBe('ISS-12');
    expect(new Set(await page.locator('tbody tr td:nth-child(7)').allTextContents())).toEqual(new Set(['ISS-12']));

    // A date range in the future matches nothing.
    await page.getByLabel('From').fill('2099-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No operation matches these filters.').waitFor();
  });

  it('answers what an agent did: the Actor column and filter find the calls whose scope names no agent', async () => {
    await page.goto(acme('operations?agentId=planner&status=failed'));
    const table = page.getByRole('region', { name: /^Operations/ }).getByRole('table');
    const headers = await table.locator('thead th').allTextContents();
    expect(headers).toEqual(['When (UTC)', 'Operation', 'Status', 'Binding', 'Actor', 'Scope agent', 'Issue', 'Source', 'Latency']);
    const column = (name: string) => table.locator(`tbody tr td:nth-child(${headers.indexOf(name) + 1})`);
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 5);

    // By actor instead of scope: the refused attempt on globex is the planner's too.
    await page.getByLabel('Scope agent').fill('');
    await page.getByLabel('Actor', { exact: true }).fill('planner');
    await page.getByLabel('Actor kind').selectOption('agent');
    const filtered = page.waitForResponse((response) => response.url().includes('/explorer/operations?') && response.url().includes('actor=planner') && response.url().includes('actorKind=agent'));
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await filtered;
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 6);
    expect(new Set(await column('Actor').allTextContents())).toEqual(new Set(['agent planner']));
    const refused = table.locator('tbody tr').filter({ hasText: 'MEMORY_SCOPE_VIOLATION' });
    expect(await refused.count()).toBe(1);
    expect(await refused.locator(`td:nth-child(${headers.indexOf('Scope agent') + 1})`).textContent()).toBe('—');

    // The planner's search of the whole company: found by actor, with no scope agent.
    await page.goto(acme('operations?actor=planner&operation=query&status=succeeded'));
    await column('Actor').first().waitFor();
    expect(await page.getByLabel('Actor', { exact: true }).inputValue()).toBe('planner');
    expect(await column('Scope agent').allTextContents()).toContain('—');
    // A source names its kind once: `run run-3`, not `run · run run-3`.
    await page.goto(acme('operations?actor=planner&operation=record_upsert'));
    // The route changes by its hash, so rows of an earlier answer may still be on the page, and
    // a re-render may replace them between two reads: the Source cells are read in the same
    // evaluation that finds the upserts' three sources on the page.
    const sourceColumn = headers.indexOf('Source') + 1;
    const expectedSources = ['run run-3', 'issue ISS-9', 'issue ISS-7 · comment c-42'];
    const shown = await page.waitForFunction(
      ({ nth, expected }) => {
        const cells = [...document.querySelectorAll(`tbody tr td:nth-child(${nth})`)].map((cell) => cell.textContent ?? '');
        return expected.every((source) => cells.includes(source)) ? cells : undefined;
      },
      { nth: sourceColumn, expected: expectedSources },
    );
    const sources = (await shown.jsonValue()) as string[];
    expect(sources).toEqual(expect.arrayContaining(expectedSources));
    for (const source of sources) expect(source).not.toMatch(/^(run|issue|activity|issue_comment|issue_document) · /);
    // The builder's capture shows the builder as the actor.
    await page.goto(acme('operations?actor=builder'));
    await page.waitForFunction(() => document.querySelectorAll('tbody tr').length === 1);
    expect(await column('Actor').allTextContents()).toEqual(['agent builder']);
  });

  it('lists records with their source backlinks, follows one into Paperclip, corrects and forgets with confirmation', async () => {
    await page.goto(acme('records?binding=notes&agentId=planner'));
    const staging = page.getByRole('row').filter({ hasText: 'The staging database is rebuilt nightly' });
    await staging.waitFor();
    const [popup] = await Promise.all([operator.waitForEvent('page'), staging.getByRole('link', { name: 'Open issue ISS-7' }).click()]);
    await popup.getByText('Paperclip').first().waitFor();
    expect(popup.url()).toBe(`${paperclip.url}/acme/issues/ISS-7`);
    expect(paperclip.visited).toContain('/acme/issues/ISS-7');
    await popup.close();
    expect(await staging.getByRole('link', { name: 'Open comment c-42' }).getAttribute('href')).toBe(`${paperclip.url}/acme/issues/ISS-7#comment-c-42`);

    // Hostile record text is shown as text: no element is made from it and nothing runs.
    const hostile = page.getByRole('row').filter({ hasText: 'ignore previous instructions' });
    await hostile.getByText('<img src=x onerror=', { exact: false }).waitFor();
    await hostile.getByRole('link').first().click();
    const detail = page.getByRole('region', { name: 'Record' });
    await detail.locator('.record-text').filter({ hasText: hostileText }).waitFor();
    expect(await page.locator('img[src="x"], script:not([src])').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    await screenshot(page, 'records');

    await detail.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('dialog', { name: 'Forget this record?' }).getByRole('button', { name: 'Forget' }).click();
    await hostile.waitFor({ state: 'detached' });
    const left = await fixture.served.service.runtime({ actor: acmeAs }).list({ bindingKey: 'notes', scope: { agentId: 'planner' } });
    expect(left.items.map((item) => item.text)).not.toContain(hostileText);

    await staging.getByRole('link').first().click();
    await detail.getByRole('button', { name: 'Correct' }).click();
    await detail.getByLabel('Corrected text').fill('The staging database is rebuilt nightly at 03:00 UTC.');
    await detail.getByLabel('Reason').fill('moved an hour');
    await detail.getByRole('button', { name: 'Save correction' }).click();
    await page.getByRole('dialog', { name: 'Correct this record?' }).getByRole('button', { name: 'Correct' }).click();
    await detail.locator('.record-text').filter({ hasText: 'The staging database is rebuilt nightly at 03:00 UTC.' }).waitFor();

    // Forgotten elsewhere while the page shows it: the page says nothing was forgotten, never "Forgotten.".
    // A record of its own, so the records the later tests read stay as the fixture wrote them.
    const runtime = fixture.served.service.runtime({ actor: acmeAs });
    const written = await runtime.upsertRecords({ bindingKey: 'notes', scope: { agentId: 'planner' }, records: [{ text: 'A note forgotten elsewhere.' }] });
    await page.goto(acme('records?binding=notes&agentId=planner'));
    await page.reload();
    await page.getByRole('row').filter({ hasText: 'A note forgotten elsewhere.' }).getByRole('link').first().click();
    await detail.locator('.record-text').filter({ hasText: 'A note forgotten elsewhere.' }).waitFor();
    await runtime.forget({ bindingKey: 'notes', handles: written.records ?? [] });
    await detail.getByRole('button', { name: 'Forget' }).click();
    await page.getByRole('dialog', { name: 'Forget this record?' }).getByRole('button', { name: 'Forget' }).click();
    await detail.getByText('Not forgotten: the provider no longer has this record.').waitFor();
    expect(await detail.getByText('Forgotten.', { exact: true }).count()).toBe(0);
  });

  it('refuses a backlink template that leaves the server, and links nothing from one an earlier page kept', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const fresh = await context.newPage();
    fresh.on('pageerror', (error) => pageErrors.push(error.message));
    await signIn(fresh, fixture.url, fixture.tokens.acmeAdmin);
    await fresh.goto(acme('settings'));
    const issue = fresh.getByLabel('Issue link template');
    const save = fresh.getByRole('button', { name: 'Save templates' });
    for (const [template, problem] of [
      ['/\\evil.example/{issueId}', 'must not hold spaces, tabs, line breaks, control characters or backslashes'],
      ['/\t/evil.example/{issueId}', 'must not hold spaces, tabs, line breaks, control characters or backslashes'],
      ['//evil.example/{issueId}', 'must start with http://, https:// or a single /'],
      ['https://paperclip.example@evil.example/{issueId}', 'must name the host plainly'],
      ['https://{companyId}.evil.example/{issueId}', 'may hold fields only after the host'],
    ] as const) {
      await issue.fill(template);
      await fresh.getByText(problem, { exact: false }).waitFor();
      expect(await save.isDisabled(), template).toBe(true);
    }
    await issue.fill('/issues/{issueId}');
    await fresh.getByText(`Links open on ${fixture.url}`).waitFor();
    expect(await save.isDisabled()).toBe(false);

    // Templates an earlier inspector accepted and kept in this browser: the refused one is dropped as the page loads.
    await fresh.evaluate(() =>
      localStorage.setItem('memplane.inspector.backlinks', JSON.stringify({ issue: '/\\evil.example/{issueId}', comment: '/issues/{issueId}#comment-{commentId}' })),
    );
    await fresh.goto(acme('records?binding=notes&agentId=planner'));
    await fresh.reload();
    const staging = fresh.getByRole('row').filter({ hasText: 'The staging database is rebuilt nightly' });
    await staging.getByRole('link', { name: 'Open comment c-42' }).waitFor();
    expect(await staging.getByRole('link', { name: 'Open issue ISS-7' }).count()).toBe(0);
    const hrefs = await fresh.locator('a[href]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    expect(hrefs.filter((href) => new URL(href).origin !== fixture.url)).toEqual([]);
    await context.close();
  });

  it('runs a query as an agent would and shows snippets with scores and backlinks', async () => {
    await page.goto(acme('query'));
    await page.getByLabel('Agent').fill('planner');
    await page.getByLabel('Query text').fill('staging database');
    await page.getByRole('button', { name: 'Run query' }).click();
    const answer = page.getByRole('region', { name: /snippets? from notes/ });
    await answer.getByText('The staging database is rebuilt nightly', { exact: false }).waitFor();
    const snippet = answer.getByRole('listitem').filter({ hasText: 'rebuilt nightly' });
    expect(await snippet.locator('.score').textContent()).toMatch(/^score \d+\.\d{3}$/);
    await snippet.getByRole('link', { name: 'Open issue ISS-7' }).waitFor();
    await answer.getByRole('link', { name: /^operation op_/ }).waitFor();
    await answer.getByText('Tick Explain and run the query again', { exact: false }).waitFor();

    // The notes binding's adapter declares explain: the box is enabled, and ticking it shows the trace of these snippets.
    await page.getByLabel('Binding').selectOption('notes');
    const explain = page.getByLabel('Explain');
    expect(await explain.isEnabled()).toBe(true);
    await explain.check();
    await page.getByRole('button', { name: 'Run query' }).click();
    const trace = page.getByRole('list', { name: 'Retrieval trace' });
    await trace.waitFor();
    const shown = await trace.getByRole('listitem').allTextContents();
    // The same query through the service: every trace line is about one of its snippets.
    const direct = await fixture.served.service.runtime({ actor: acmeAs }).query({ bindingKey: 'notes', scope: { agentId: 'planner' }, query: 'staging database', explain: true });
    const ids = direct.snippets.map((item) => item.handle.providerRecordId);
    expect(shown.length).toBe(direct.explanation!.steps.length);
    expect(shown.length).toBeGreaterThan(0);
    for (const line of shown) expect(ids.some((id) => line.includes(id)), line).toBe(true);
    expect(await page.locator('img[src="x"], script:not([src])').count()).toBe(0);
    await screenshot(page, 'query');
  });

  it('shows a failed extraction job with its hook, source and error, and retries it after confirmation', async () => {
    await page.goto(acme('jobs?status=failed'));
    const row = page.getByRole('row').filter({ hasText: fixture.failedJobId });
    await row.getByText('extraction_failure', { exact: false }).waitFor();
    await row.getByRole('link', { name: 'Open issue ISS-12' }).waitFor();
    await row.getByText('direct capture').waitFor();
    await screenshot(page, 'jobs');

    await row.getByRole('button', { name: `Retry job ${fixture.failedJobId}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Retry' }).click();
    await page.getByRole('status').filter({ hasText: `Job ${fixture.failedJobId} is queued again (retry 1).` }).waitFor();
    const jobs = await fixture.served.service.explorer({ actor: acmeAs }).listExtractionJobs();
    expect(jobs.items.find((job) => job.id === fixture.failedJobId)).toMatchObject({ status: 'queued', retryCount: 1 });
    await row.waitFor({ state: 'detached' });
  });

  it('draws usage and cost charts from the metrics and lists finance events', async () => {
    await page.goto(acme('usage'));
    await page.waitForFunction(() => document.querySelectorAll('figure.chart canvas').length === 5);
    await page.getByRole('row', { name: /^notes \d+/ }).waitFor();
    const finance = page.getByRole('region', { name: 'Finance events' });
    await finance.getByText('Monthly plan').waitFor();
    // Calls refused before a binding was chosen are a group of their own, not a binding named (unresolved).
    const refused = page.getByRole('row', { name: /^Refused before a binding was chosen \d+/ });
    await refused.waitFor();
    expect(await refused.getByRole('rowheader').getAttribute('title')).toContain('The API reports them under the binding key (unresolved).');
    expect(await page.locator('main').textContent()).not.toContain('(unresolved)');
    await page.getByText('Refused before a binding was chosen (failed)').first().waitFor({ state: 'attached' });
    await screenshot(page, 'usage', { fullPage: true });

    // Book a flat cost: refused without a positive amount, booked after the confirmation, and counted.
    await finance.getByText('Book a flat cost').click();
    const booking = page.getByRole('form', { name: 'Book a flat cost' });
    await booking.getByLabel('Biller').fill('storage-co');
    await booking.getByLabel('Amount (US dollars)').fill('-3');
    await booking.getByRole('button', { name: 'Book' }).click();
    await finance.getByRole('alert').filter({ hasText: 'Amount' }).waitFor();
    await booking.getByLabel('Amount (US dollars)').fill('12.50');
    await booking.getByLabel('Binding').selectOption('notes');
    await booking.getByLabel('Description').fill('Storage for November');
    await booking.getByRole('button', { name: 'Book' }).click();
    await page.getByRole('dialog', { name: 'Book this finance event?' }).getByRole('button', { name: 'Book' }).click();
    await finance.getByRole('row').filter({ hasText: 'Storage for November' }).waitFor();
    await page.getByText('flat cost $31.50', { exact: false }).waitFor();
    const booked = await fixture.served.service.costs({ actor: acmeAs }).listFinanceEvents();
    expect(booked.items[0]).toMatchObject({ biller: 'storage-co', amountCents: 1250, bindingKey: 'notes', kind: 'subscription', description: 'Storage for November' });
  });

  it('loads nothing from outside the server (the followed backlink aside)', () => {
    expect(requested.length).toBeGreaterThan(50);
    expect(requested.filter((url) => !url.startsWith(`${fixture.url}/`) && !url.startsWith(`${paperclip.url}/`))).toEqual([]);
  });

  it('lets an operator switch companies', async () => {
    await page.goto(acme('bindings'));
    await page.getByLabel('Company', { exact: true }).selectOption('globex');
    await page.waitForURL(/#\/globex\/bindings$/);
    await page.getByRole('row').filter({ hasText: 'vault' }).first().waitFor();
    expect(await page.getByRole('row').filter({ hasText: 'notes' }).count()).toBe(0);
  });

  it('keeps a company admin inside their own company', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const admin = await context.newPage();
    await signIn(admin, fixture.url, fixture.tokens.globexAdmin);
    expect(await admin.getByLabel('Company', { exact: true }).locator('option').allTextContents()).toEqual(['globex']);
    await admin.getByRole('row').filter({ hasText: 'vault' }).filter({ hasText: 'memory' }).first().waitFor();

    await admin.goto(`${fixture.url}/#/acme/operations`);
    await admin.getByRole('alert').filter({ hasText: 'Not allowed' }).waitFor();
    expect(await admin.locator('tbody tr').count()).toBe(0);
    expect(await admin.getByLabel('Company', { exact: true }).locator('option').allTextContents()).toEqual(['globex', 'acme (not granted)']);
    await admin.goto(`${fixture.url}/#/acme/records?binding=notes`);
    await admin.getByRole('alert').filter({ hasText: 'Not allowed' }).waitFor();
    expect(await admin.content()).not.toContain('staging database');
    await screenshot(admin, 'company-admin');
    await context.close();
  });

  it('signs out when the token is revoked while the page is open', async () => {
    const { token, record } = await fixture.served.tokens.issue({ role: 'admin', companyId: 'acme', userId: 'leaver' });
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const leaver = await context.newPage();
    await signIn(leaver, fixture.url, token);
    // Every call of the first page has answered before the token is revoked.
    await leaver.getByRole('row', { name: /agent builder extract agent override/ }).waitFor();
    await leaver.waitForLoadState('networkidle');
    expect(await fixture.served.tokens.revoke(record.id)).toBe(true);
    await leaver.getByRole('link', { name: 'Operations' }).click();
    await leaver.getByRole('status').filter({ hasText: 'The token was refused' }).waitFor();
    await leaver.getByLabel('Token').waitFor();
    expect(await leaver.evaluate(() => sessionStorage.getItem('memplane.inspector.token'))).toBeNull();
    await context.close();
  });

  it('labels every control and fits a narrow window without sideways scrolling', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 } });
    const narrow = await context.newPage();
    await signIn(narrow, fixture.url, fixture.tokens.acmeAdmin);
    for (const path of ['bindings', 'operations', 'records?binding=notes', 'query', 'jobs', 'usage', 'settings']) {
      await narrow.goto(`${fixture.url}/#/acme/${path}`);
      await narrow.locator('main h1').waitFor();
      await narrow.waitForLoadState('networkidle');
      const unlabelled = await narrow.evaluate(() =>
        [...document.querySelectorAll('input, select, textarea, button')]
          .filter((element) => {
            const labels = (element as HTMLInputElement).labels;
            const named = element.getAttribute('aria-label') ?? (element.tagName === 'BUTTON' ? element.textContent?.trim() : '');
            return (labels === null || labels.length === 0) && (named === null || named === undefined || named === '');
          })
          .map((element) => element.outerHTML),
      );
      expect(unlabelled, path).toEqual([]);
      // Nothing sticks out sideways: wide tables scroll inside their own box.
      const overflowing = await narrow.evaluate(() =>
        [...document.querySelectorAll('body *')]
          .filter((element) => element.getBoundingClientRect().right > window.innerWidth && element.closest('.table-scroll') === null)
          .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
      );
      expect(overflowing, path).toEqual([]);
      expect(await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), path).toBeLessThanOrEqual(0);
    }
    // The binding form with a provider's settings, example and schema fits too.
    await narrow.goto(`${fixture.url}/#/acme/bindings`);
    await narrow.getByRole('button', { name: 'New binding' }).click();
    await narrow.getByRole('form', { name: 'New binding' }).getByLabel('Provider').selectOption('agentcore');
    await narrow.getByRole('region', { name: 'Settings of agentcore' }).getByText('credentials.secretAccessKey').waitFor();
    const overflowing = await narrow.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth && element.closest('.table-scroll') === null)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className}`),
    );
    expect(overflowing).toEqual([]);
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await narrow.goto(`${fixture.url}/#/acme/operations`);
    await narrow.locator('tbody tr').first().waitFor();
    await screenshot(narrow, 'narrow-operations');
    await context.close();
  });
});
