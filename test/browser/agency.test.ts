import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { startReceiver, until } from '../helpers/webhook-receiver.ts';
import {
  addAgent,
  api,
  apiSignIn,
  eventually,
  expectAccessible,
  newAgency,
  shared,
  signedInPage,
  uniqueEmail,
} from './harness.ts';
import { button, choose, field } from './steps.ts';

const server = shared();
const link = (name: string) => new RegExp(`^\\W*${name}\\b`, 'i');

describe.concurrent('browser: the agency screens', () => {
  it('keeps an AGENT out of the agency screens: no link, and the address says not allowed', async () => {
    const admin = await newAgency(server);
    const agent = await addAgent(server, admin, { role: 'AGENT' });
    await using watched = await signedInPage(server, agent);
    const { page, errors } = watched;
    await page.goto(`${server.url}/search`);
    await page.getByRole('link', { name: link('Bookings') }).waitFor();

    expect(await page.getByRole('link', { name: link('Agents') }).count()).toBe(0);
    expect(await page.getByRole('link', { name: link('Webhooks') }).count()).toBe(0);
    for (const screen of ['/agency/agents', '/agency/webhooks']) {
      await page.goto(`${server.url}${screen}`);
      await page
        .getByText(/not allowed/i)
        .first()
        .waitFor();
      expect(await button(page, 'Add agent').count()).toBe(0);
      expect(await button(page, 'Add endpoint').count()).toBe(0);
    }
    await expectAccessible(page, 'not allowed');
    expect((await api(server, agent, '/api/agency/agents/list', {})).status).toBe(403);
    expect(errors).toEqual([]);
  });

  it('lets an ADMIN add an agent, who is then listed and can sign in', async () => {
    const admin = await newAgency(server);
    await using watched = await signedInPage(server, admin);
    const { page } = watched;
    await page.goto(`${server.url}/search`);
    await page.getByRole('link', { name: link('Agents') }).click();
    await page.waitForURL((url) => url.pathname === '/agency/agents');
    await button(page, 'Add agent').first().waitFor();
    await expectAccessible(page, 'agents');
    const identifier = uniqueEmail('new');

    if (!(await field(page, 'Name').isVisible())) await button(page, 'Add agent').first().click();
    await field(page, 'Name').fill('Dorothy Vaughan');
    await field(page, 'E-mail or phone').fill(identifier);
    await choose(page, 'Role', /^agent$/i);
    await button(page, 'Add agent').last().click();
    await page.getByText(identifier).first().waitFor();
    // On a phone, an agent whose number is typed as people write it: listed as E.164, nothing sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    const digits = String(Date.now() % 100_000).padStart(5, '0');
    await field(page, 'Name').fill('Mary Jackson');
    await field(page, 'E-mail or phone').fill(`+44 (0)7400 1${digits.slice(0, 2)}-${digits.slice(2)}`);
    await button(page, 'Add agent').last().click();
    await page.getByText(`+4474001${digits}`).first().waitFor();
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth),
    ).toBe(false);
    await expectAccessible(page, 'agents at 390 px');

    const listed = await api(server, admin, '/api/agency/agents/list', {});
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ identifier, name: 'Dorothy Vaughan', role: 'AGENT', active: true }),
    );
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ identifier: `+4474001${digits}`, name: 'Mary Jackson', type: 'PHONE' }),
    );
    expect((await apiSignIn(server, identifier)).agent).toMatchObject({
      name: 'Dorothy Vaughan',
      role: 'AGENT',
    });
  });

  it('lets an ADMIN add a webhook (secret shown once), ping it, and see the delivery arrive', async () => {
    const admin = await newAgency(server);
    const receiver = await startReceiver();
    try {
      await using watched = await signedInPage(server, admin);
      const { page } = watched;
      await page.goto(`${server.url}/search`);
      await page.getByRole('link', { name: link('Webhooks') }).click();
      await page.waitForURL((url) => url.pathname === '/agency/webhooks');
      await button(page, 'Add endpoint').first().waitFor();
      await expectAccessible(page, 'webhooks');

      if (!(await field(page, 'URL').isVisible())) await button(page, 'Add endpoint').first().click();
      await field(page, 'URL').fill(receiver.url);
      await button(page, 'Add endpoint').last().click();
      const secretShown = page.getByText(/whsec_[A-Za-z0-9+/=]+/).first();
      await secretShown.waitFor();
      receiver.useSecret(/whsec_[A-Za-z0-9+/=]+/.exec((await secretShown.textContent()) ?? '')?.[0] ?? '');
      await expectAccessible(page, 'webhook secret');
      await button(page, 'Ping').click();
      await until('the ping to arrive', () => receiver.deliveries.length > 0);
      await page
        .getByText(/delivered/i)
        .first()
        .waitFor();

      expect(receiver.deliveries[0]).toMatchObject({ verified: true, body: { type: 'webhook.ping' } });
      await page.reload();
      await page.getByText(receiver.url).first().waitFor();
      expect(await page.getByText(/whsec_/).count()).toBe(0);
    } finally {
      await receiver.close();
    }
  });
});

/** Every request the page sends to `path`, by its body. */
function sentTo(page: Page, path: string): string[] {
  const bodies: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === path) bodies.push(request.postData() ?? '');
  });
  return bodies;
}

/** The dialog named `name` is open and has the focus (modal: the rest of the page is inert). */
async function askedInDialog(page: Page, name: RegExp) {
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  expect(await page.evaluate('document.activeElement?.closest("dialog[open]")?.textContent')).toMatch(name);
  return dialog;
}

/** The accessible label (or text) of what has the focus, once it is `expected` (the dialog has just closed). */
const focusComesTo = (page: Page, expected: string) =>
  eventually(async () => {
    const focused = await page.evaluate(
      'document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent',
    );
    return focused === expected ? focused : undefined;
  });

describe.concurrent('browser: nothing irreversible on one keystroke', () => {
  it('an arrow key on a role select changes nothing; Change role, then the dialog, does', async () => {
    const admin = await newAgency(server);
    const agent = await addAgent(server, admin, { role: 'AGENT', name: 'Mary Jackson' });
    await using watched = await signedInPage(server, admin);
    const { page, errors, settled } = watched;
    const updates = sentTo(page, '/api/agency/agents/update');
    const roleOf = async () =>
      (await api(server, admin, '/api/agency/agents/list', {})).body.data.find(
        (listed: { id: string }) => listed.id === agent.agent.id,
      )?.role;
    await page.goto(`${server.url}/agency/agents`);
    const role = page.getByRole('combobox', { name: 'Mary Jackson: role' });

    await role.focus();
    await page.keyboard.press('ArrowDown');
    await settled();
    expect(updates).toEqual([]);
    // The arrow did move the choice: only not as a change.
    expect(await role.inputValue()).toBe('ADMIN');
    await page.reload();
    expect(await role.inputValue()).toBe('AGENT');
    expect(await roleOf()).toBe('AGENT');

    await role.selectOption('ADMIN');
    await button(page, 'Change role').click();
    await askedInDialog(page, /Mary Jackson/);
    await expectAccessible(page, 'role dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusComesTo(page, 'Mary Jackson: role');
    expect(await role.inputValue()).toBe('AGENT');
    expect(updates).toEqual([]);

    await role.selectOption('ADMIN');
    await button(page, 'Change role').click();
    const dialog = await askedInDialog(page, /Mary Jackson/);
    await button(dialog, 'Make Mary Jackson an admin').click();
    await page
      .getByRole('status')
      .filter({ hasText: /Mary Jackson is now an admin/i })
      .waitFor();
    expect(updates).toHaveLength(1);
    expect(await roleOf()).toBe('ADMIN');
    await page.reload();
    expect(await role.inputValue()).toBe('ADMIN');
    expect(errors).toEqual([]);
  });

  it('Deactivate asks first, naming the agent; Escape keeps the agent; confirmed, it is said', async () => {
    const admin = await newAgency(server);
    const agent = await addAgent(server, admin, { name: 'Annie Easley' });
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    const updates = sentTo(page, '/api/agency/agents/update');
    await page.goto(`${server.url}/agency/agents`);

    await button(page, 'Deactivate Annie Easley').click();
    await askedInDialog(page, /Deactivate Annie Easley/);
    await expectAccessible(page, 'deactivate dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusComesTo(page, 'Deactivate Annie Easley');
    expect(updates).toEqual([]);

    await button(page, 'Deactivate Annie Easley').click();
    const dialog = await askedInDialog(page, /Deactivate Annie Easley/);
    await button(dialog, 'Deactivate Annie Easley').click();
    await page
      .getByRole('status')
      .filter({ hasText: /Annie Easley is deactivated/i })
      .waitFor();
    await button(page, 'Activate Annie Easley').waitFor();

    const listed = await api(server, admin, '/api/agency/agents/list', {});
    expect(listed.body.data).toContainEqual(expect.objectContaining({ id: agent.agent.id, active: false }));
    expect(updates).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('webhook Delete asks first, naming the URL; Escape keeps it; confirmed, it is said', async () => {
    const admin = await newAgency(server);
    const url = 'http://127.0.0.1:9/hooks/keep-or-delete';
    expect((await api(server, admin, '/api/agency/webhooks/create', { url })).status).toBe(201);
    await using watched = await signedInPage(server, admin);
    const { page, errors } = watched;
    const deletes = sentTo(page, '/api/agency/webhooks/delete');
    await page.goto(`${server.url}/agency/webhooks`);

    await button(page, `Delete ${url}`).click();
    await askedInDialog(page, /Delete this endpoint/);
    await page.getByRole('dialog').getByText(url).waitFor();
    await expectAccessible(page, 'delete dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await focusComesTo(page, `Delete ${url}`);
    expect(deletes).toEqual([]);

    await button(page, `Delete ${url}`).click();
    const dialog = await askedInDialog(page, /Delete this endpoint/);
    await button(dialog, 'Delete endpoint').click();
    await page
      .getByRole('status')
      .filter({ hasText: `Deleted ${url}` })
      .waitFor();

    expect((await api(server, admin, '/api/agency/webhooks/list', {})).body.data).toEqual([]);
    expect(deletes).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});
