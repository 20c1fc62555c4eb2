import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { routes } from '#shared/routes.ts';

describe('route table', () => {
  it('has unique ids and paths, all under /api without a version segment', () => {
    expect(new Set(routes.map((r) => r.id)).size).toBe(routes.length);
    expect(new Set(routes.map((r) => r.path)).size).toBe(routes.length);
    for (const route of routes) expect(route.path).toMatch(/^\/api\/(?!v\d)[a-z-]+(\/[a-z-]+)+$/);
  });

  it('points every route at a handler file that only composes httpHandler over the context it is given', () => {
    for (const route of routes) {
      expect(existsSync(route.entry), route.entry).toBe(true);
      const source = readFileSync(route.entry, 'utf8');
      expect(source).toMatch(
        /export function createHandler\(ctx: \w*Context[^)]*\) \{[\s\S]*return httpHandler\(\s*route\('/,
      );
      expect(source).toMatch(new RegExp(`route\\('${route.id}'\\)`));
      expect(source).toMatch(
        /export const handler = createHandler\((context\b|\{ \.\.\.context, (supplier: await|catalog: \(\) =>) \w+Supplier\(context\) \}\)|await \w+Context\(context(, \w+)?\)\))/,
      );
      expect(source.split('\n').length).toBeLessThan(25);
    }
  });

  it('requires a session everywhere except the two sign-in routes', () => {
    const open = routes.filter((r) => !r.auth).map((r) => r.path);
    expect(open).toEqual(['/api/auth/send-otp', '/api/auth/verify-otp']);
  });

  it('grants e-mail and SMS sending to send-otp alone', () => {
    const senders = routes.filter((r) => r.grants.some((g) => g === 'send-email' || g === 'send-sms'));
    expect(senders.map((r) => r.id)).toEqual(['send-otp']);
  });
});
