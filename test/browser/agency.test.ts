import { describe, expect, it } from 'vitest';
import { startReceiver, until } from '../helpers/webhook-receiver.ts';
import {
  addAgent,
  api,
  apiSignIn,
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
    const { page, errors } = await signedInPage(server, agent);
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
    const { page } = await signedInPage(server, admin);
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

    const listed = await api(server, admin, '/api/agency/agents/list', {});
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ identifier, name: 'Dorothy Vaughan', role: 'AGENT', active: true }),
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
      const { page } = await signedInPage(server, admin);
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
