import { describe, expect, it } from 'vitest';
import { expectAccessible, newPage, shared } from './harness.ts';

describe('fn: expectAccessible', () => {
  it('loads axe-core into a document once, however many of its screens are checked', async () => {
    await using watched = await newPage();
    const { page } = watched;
    await page.goto(`${shared().url}/sign-in`);
    await expectAccessible(page, 'sign-in');
    // Evaluating axe-core's source again would replace this object, and the mark with it.
    await page.evaluate('window.axe.markedByTheTest = true');

    await expectAccessible(page, 'sign-in, checked again');

    expect(await page.evaluate('window.axe.markedByTheTest')).toBe(true);
  });
});
