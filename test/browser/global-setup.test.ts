import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM } from '../helpers/console-agents.ts';
import { launchChromium } from '../helpers/run-starts.ts';

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
    } finally {
      await server.close();
    }
  });
});
