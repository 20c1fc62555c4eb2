import { describe, expect, it, vi } from 'vitest';
import { lazyNoticeSender } from '#shared/events/events-context.ts';
import type { Notice } from '#shared/events/notice.ts';

describe('fn: lazyNoticeSender', () => {
  it('makes its sender on the first send, not before, and only once', async () => {
    const sent: Notice[] = [];
    const make = vi.fn(async () => ({ send: async (notice: Notice) => void sent.push(notice) }));
    const sender = lazyNoticeSender(make);
    expect(make).not.toHaveBeenCalled();

    const notice = { subject: 'Your itinerary' } as Notice;
    await Promise.all([sender.send(notice), sender.send(notice)]);

    expect(make).toHaveBeenCalledTimes(1);
    expect(sent).toEqual([notice, notice]);
  });

  it('tries to make its sender again on the next send after making it failed', async () => {
    const make = vi
      .fn<() => Promise<{ send: (notice: Notice) => Promise<void> }>>()
      .mockRejectedValueOnce(new Error('no SES client'))
      .mockResolvedValue({ send: async () => {} });
    const sender = lazyNoticeSender(make);

    await expect(sender.send({} as Notice)).rejects.toThrow('no SES client');
    await expect(sender.send({} as Notice)).resolves.toBeUndefined();
    expect(make).toHaveBeenCalledTimes(2);
  });
});
