import { describe, expect, it } from 'vitest';
import type { Session } from '#shared/auth/session.ts';
import { UnauthorizedError } from '#shared/errors.ts';
import type { ApiEvent } from '#shared/http/api-event.ts';
import { authenticate } from '#shared/http/authenticate.ts';
import { MAX_BODY_BYTES } from '#shared/http/json-body.ts';
import { documentRoute, routes } from '#shared/routes.ts';
import { DEVELOPMENT, type Json, PRODUCTION, resourcesOf, synthStage } from '#test/helpers/stage-files.ts';

const blocked = { ...PRODUCTION, blockedAddresses: ['192.0.2.0/24', '198.51.100.7/32', '2001:db8::/32'] };
const production = synthStage(blocked).template;
const development = synthStage(DEVELOPMENT).template;

const webAcl = (template = production): Json =>
  resourcesOf(template, 'AWS::WAFv2::WebACL')[0]?.[1].Properties;
const rule = (name: string, template = production): Json =>
  webAcl(template).Rules.find((r: Json) => r.Name === name);
const headersOf = (r: Json): Record<string, string> =>
  Object.fromEntries(r.Action.Block.CustomResponse.ResponseHeaders.map((h: Json) => [h.Name, h.Value]));
const bodyOf = (r: Json, template = production) =>
  JSON.parse(
    webAcl(template).CustomResponseBodies[r.Action.Block.CustomResponse.CustomResponseBodyKey].Content,
  );

/**
 * WAF's text transformations as AWS documents them, applied in priority order: COMPRESS_WHITE_SPACE
 * turns \f \t \n \r \v and the no-break space into spaces and runs of spaces into one; LOWERCASE
 * lower-cases A-Z.
 */
function transform(value: string, transformations: Json[]): string {
  return [...transformations]
    .sort((a, b) => a.Priority - b.Priority)
    .reduce((text, { Type }) => {
      if (Type === 'COMPRESS_WHITE_SPACE')
        return text.replace(/[\f\t\n\r\v\u00a0]/g, ' ').replace(/ {2,}/g, ' ');
      if (Type === 'LOWERCASE') return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
      if (Type === 'NONE') return text;
      throw new Error(`no model of ${Type}`);
    }, value);
}

describe('infra: the firewall counts every spelling of one session as one session', () => {
  const token = 'eyJhbGciOiJIUzI1NiIsInR5cCI6InNlc3Npb24rand0In0.eyJzdWIiOiJhIn0.c2lnbmF0dXJl';
  const spellings = [
    `Bearer ${token}`,
    `bearer ${token}`,
    `BEARER ${token}`,
    `bEaReR ${token}`,
    `Bearer${' '.repeat(500)}${token}`,
  ];

  it('normalises the bearer header and the session cookie with COMPRESS_WHITE_SPACE, then LOWERCASE', () => {
    const expected = [
      { Priority: 0, Type: 'COMPRESS_WHITE_SPACE' },
      { Priority: 1, Type: 'LOWERCASE' },
    ];
    expect(rule('SessionRateLimit').Statement.RateBasedStatement.CustomKeys).toEqual([
      { Header: { Name: 'authorization', TextTransformations: expected } },
    ]);
    expect(rule('SessionCookieRateLimit').Statement.RateBasedStatement.CustomKeys).toEqual([
      { Cookie: { Name: '__Host-session', TextTransformations: expected } },
    ]);
  });

  it('keeps accepting bearer, BEARER and 500 spaces in the service, and each is the same WAF key', async () => {
    const [key] = rule('SessionRateLimit').Statement.RateBasedStatement.CustomKeys;
    const verified: string[] = [];
    const session = authenticate(async (presented) => {
      verified.push(presented);
      return {} as Session;
    }, []);
    for (const authorization of spellings) {
      const event = { headers: { Authorization: authorization } } as unknown as ApiEvent;
      await session.before?.({ event } as unknown as Parameters<NonNullable<typeof session.before>>[0]);
      expect(event.sessionVia, authorization).toBe('bearer');
    }
    expect(verified).toEqual(spellings.map(() => token));
    const keys = spellings.map((authorization) => transform(authorization, key.Header.TextTransformations));
    expect(new Set(keys).size).toBe(1);
  });

  it('counts a cookie padded with spaces or tabs against its one key', () => {
    const [key] = rule('SessionCookieRateLimit').Statement.RateBasedStatement.CustomKeys;
    const padded = [token, ` ${token}`, `\t${token}`, `${' '.repeat(300)}${token}`].map((value) =>
      transform(value, key.Cookie.TextTransformations),
    );
    expect(new Set(padded.map((value) => value.trim())).size).toBe(1);
    expect(new Set(padded).size).toBeLessThanOrEqual(2);
  });
});

describe('infra: the firewall keeps no live credential', () => {
  it('samples no request, on any rule or on the web ACL', () => {
    expect(webAcl().VisibilityConfig.SampledRequestsEnabled).toBe(false);
    for (const r of webAcl().Rules) expect(r.VisibilityConfig.SampledRequestsEnabled, r.Name).toBe(false);
  });

  it('redacts Authorization and Cookie in whatever WAF keeps, rate-rule details included', () => {
    expect(webAcl().DataProtectionConfig).toEqual({
      DataProtections: [
        {
          Field: { FieldType: 'SINGLE_HEADER', FieldKeys: ['authorization', 'cookie'] },
          Action: 'SUBSTITUTION',
          ExcludeRateBasedDetails: false,
          ExcludeRuleMatchDetails: false,
        },
      ],
    });
  });
});

describe('infra: the firewall refuses requests without credentials before they reach a function', () => {
  const missing = rule('MissingCredentials');
  const [method, path, header, cookie] = missing.Statement.AndStatement.Statements;
  const pattern = new RegExp(path.RegexMatchStatement.RegexString);

  it('answers 401 UNAUTHORIZED in the envelope with the challenge the service sends', () => {
    const service = new UnauthorizedError();
    expect(missing.Action.Block.CustomResponse.ResponseCode).toBe(401);
    expect(headersOf(missing)).toMatchObject({ ...service.headers, 'Cache-Control': 'no-store' });
    expect(headersOf(missing)['WWW-Authenticate']).toBe('Bearer realm="flight-booking"');
    expect(bodyOf(missing)).toEqual({
      success: false,
      error: { code: 'UNAUTHORIZED', message: service.message, request_id: 'waf' },
    });
  });

  it('applies to POST only, so CORS preflights and other methods get the gateway’s own answers', () => {
    expect(method.ByteMatchStatement).toMatchObject({
      FieldToMatch: { Method: {} },
      PositionalConstraint: 'EXACTLY',
      SearchString: 'POST',
    });
  });

  it('covers every route that needs a session, behind the stage or a base path, and no public one', () => {
    for (const route of routes.filter((r) => r.auth))
      for (const uri of [route.path, `/prod${route.path}`, `/v1${route.path}/`])
        expect(pattern.test(uri), uri).toBe(true);
    for (const uri of [
      ...routes.filter((r) => !r.auth).map((r) => `/prod${r.path}`),
      `/prod${documentRoute.path}`,
      '/docs',
      '/prod/api/flights/search/extra',
    ])
      expect(pattern.test(uri), uri).toBe(false);
    expect(path.RegexMatchStatement.TextTransformations.map((t: Json) => t.Type)).toEqual([
      'URL_DECODE',
      'NORMALIZE_PATH',
    ]);
  });

  it('fires only when the Authorization header and the session cookie are both absent or empty', () => {
    expect(header.NotStatement.Statement.SizeConstraintStatement).toMatchObject({
      FieldToMatch: { SingleHeader: { Name: 'authorization' } },
      ComparisonOperator: 'GT',
      Size: 0,
    });
    expect(cookie.NotStatement.Statement.SizeConstraintStatement).toMatchObject({
      FieldToMatch: {
        Cookies: {
          MatchPattern: { IncludedCookies: ['__Host-session'] },
          MatchScope: 'VALUE',
          OversizeHandling: 'MATCH',
        },
      },
      ComparisonOperator: 'GT',
      Size: 0,
    });
  });
});

describe('infra: blocking an abusive address from the stage file', () => {
  it('refuses the configured ranges first, from one IP set per version, 403 in the envelope', () => {
    const sets = resourcesOf(production, 'AWS::WAFv2::IPSet').map(
      ([id, set]) => [id, set.Properties] as const,
    );
    const v4 = sets.find(([, set]) => set.IPAddressVersion === 'IPV4');
    const v6 = sets.find(([, set]) => set.IPAddressVersion === 'IPV6');
    expect(v4?.[1].Addresses).toEqual(['192.0.2.0/24', '198.51.100.7/32']);
    expect(v6?.[1].Addresses).toEqual(['2001:db8::/32']);

    const first = webAcl().Rules.find((r: Json) => r.Priority === 0);
    expect(first.Name).toBe('BlockedAddresses');
    expect(
      first.Statement.OrStatement.Statements.map((s: Json) => s.IPSetReferenceStatement.Arn['Fn::GetAtt'][0]),
    ).toEqual([v4?.[0], v6?.[0]]);
    expect(first.Action.Block.CustomResponse.ResponseCode).toBe(403);
    expect(bodyOf(first).error).toMatchObject({ code: 'REQUEST_REJECTED', request_id: 'waf' });
  });

  it('keeps both IP sets, empty, when nothing is blocked, so adding a range changes no rule', () => {
    const sets = resourcesOf(development, 'AWS::WAFv2::IPSet').map(([, set]) => set.Properties);
    expect(sets.map((set) => [set.IPAddressVersion, set.Addresses])).toEqual([
      ['IPV4', []],
      ['IPV6', []],
    ]);
    expect(rule('BlockedAddresses', development).Priority).toBe(0);
  });
});

describe('infra: the firewall inspects bodies as large as the API accepts', () => {
  it('has API Gateway send it 64 KB of every body, not the default 16 KB', () => {
    expect(webAcl().AssociationConfig).toEqual({
      RequestBody: { API_GATEWAY: { DefaultSizeInspectionLimit: 'KB_64' } },
    });
  });

  it('answers a body over 64 KiB 413 PAYLOAD_TOO_LARGE, as the function would, before any function runs', () => {
    const oversize = rule('OversizeBody');
    expect(oversize.Statement.SizeConstraintStatement).toMatchObject({
      FieldToMatch: { Body: { OversizeHandling: 'MATCH' } },
      ComparisonOperator: 'GT',
      Size: MAX_BODY_BYTES,
    });
    expect(oversize.Action.Block.CustomResponse.ResponseCode).toBe(413);
    expect(bodyOf(oversize).error).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'The body is over 65536 bytes.',
      request_id: 'waf',
    });
  });
});

describe('infra: the firewall’s own answers', () => {
  const answering = (template: Parameters<typeof webAcl>[0]) =>
    webAcl(template).Rules.filter((r: Json) => r.Action?.Block?.CustomResponse);

  it('carry no-store and, with one allowed origin, CORS headers a browser can read (429s included)', () => {
    expect(answering(production).map((r: Json) => r.Name)).toEqual([
      'BlockedAddresses',
      'OversizeBody',
      'AuthRateLimit',
      'AddressRateLimit',
      'SessionRateLimit',
      'SessionCookieRateLimit',
      'MissingCredentials',
    ]);
    for (const r of answering(production)) {
      expect(headersOf(r), r.Name).toMatchObject({
        'Cache-Control': 'no-store',
        'Access-Control-Allow-Origin': 'https://agents.acme-travel.co.uk',
        'Access-Control-Allow-Credentials': 'true',
        'Access-Control-Expose-Headers': 'Retry-After',
        Vary: 'Origin',
      });
    }
  });

  it('carry no CORS headers without an allowed origin, or with several (an answer cannot pick one)', () => {
    const several = synthStage({
      ...PRODUCTION,
      corsOrigins: ['https://a.acme-travel.co.uk', 'https://b.acme-travel.co.uk'],
    }).template;
    for (const template of [development, several])
      for (const r of answering(template)) {
        expect(
          Object.keys(headersOf(r)).filter((h) => h.startsWith('Access-Control')),
          r.Name,
        ).toEqual([]);
        expect(headersOf(r)['Cache-Control']).toBe('no-store');
      }
  });

  it('tell browsers to keep to HTTPS (HSTS), as every other deployed answer does', () => {
    for (const template of [development, production])
      for (const r of answering(template))
        expect(headersOf(r)['Strict-Transport-Security'], r.Name).toBe('max-age=63072000; includeSubDomains');
  });

  it('are valid JSON envelopes, each body used by a rule', () => {
    const bodies = webAcl().CustomResponseBodies as Record<string, Json>;
    const used = answering(production).map((r: Json) => r.Action.Block.CustomResponse.CustomResponseBodyKey);
    expect(new Set(used)).toEqual(new Set(Object.keys(bodies)));
    for (const [key, body] of Object.entries(bodies))
      expect(JSON.parse(body.Content), key).toMatchObject({ success: false, error: { request_id: 'waf' } });
  });
});
