import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/console-agents.ts';
import { launchChromium, UNSEEN_BROWSER_UI } from '../helpers/run-starts.ts';
import { browser } from './harness.ts';

describe('fn: launchChromium', () => {
  it('launches a fresh Chromium when the first one dies before it connects', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fake-chromium-'));
    const launches = join(dir, 'launches');
    // Dies at its first launch, as a crashed or killed start would; the real Chromium afterwards.
    writeFileSync(
      join(dir, 'chromium'),
      `#!/bin/sh\necho x >> '${launches}'\n[ "$(wc -l < '${launches}')" -gt 1 ] && exec '${CHROMIUM}' "$@"\nexit 1\n`,
    );
    chmodSync(join(dir, 'chromium'), 0o755);

    const server = await launchChromium(join(dir, 'chromium'));
    try {
      const browser = await chromium.connect(server.wsEndpoint());
      expect(browser.version()).toMatch(/^\d+\./);
      await browser.close();
      expect(readFileSync(launches, 'utf8').trim().split('\n')).toHaveLength(2);
      // Chromium keeps the last --disable-features alone: one, with playwright's list in it (run-starts.ts).
      const features = server.process().spawnargs.filter((arg) => arg.startsWith('--disable-features='));
      expect(features).toHaveLength(1);
      expect(features[0]?.split('=')[1]?.split(',')).toEqual(expect.arrayContaining(UNSEEN_BROWSER_UI));
    } finally {
      await server.close();
    }
  });

  it('opens no browser UI of its own beside the page of a new context', async () => {
    const run = await browser();
    const cdp = await run.newBrowserCDPSession();
    await using context = await run.newContext();
    await context.newPage();

    // Other files' contexts are open too: none of theirs may have one either.
    const { targetInfos } = await cdp.send('Target.getTargets');
    expect(targetInfos.filter((target) => target.url.startsWith('chrome://'))).toEqual([]);
    await cdp.detach();
  });
});
