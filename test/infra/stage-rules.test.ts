import { describe, expect, it } from 'vitest';
import { readAgencyBounds, readSenderConfig } from '#shared/config.ts';
import { routes } from '#shared/routes.ts';
import { PRODUCTION, PRODUCTION_FILE, resourcesOf, synthStage } from '#test/helpers/stage-files.ts';
import { parseAccountConfig, parseStageConfig } from '../../infra/stage-config.ts';

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const refused = (change: Record<string, unknown>, key: string) =>
  expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, ...change })).toThrow(
    new RegExp(`prod\\.json: .*${literal(key)} `),
  );

describe('infra: stage files refuse what AWS would refuse or silently misread', () => {
  it('refuses 9999 days of log retention: CloudWatch reads it as "never expire"', () => {
    refused({ logRetentionDays: 9999 }, 'logRetentionDays');
    const account = {
      monthlySpendLimitUsd: 5,
      successSamplingPercent: 0,
      alarmEmail: 'ops@acme-travel.co.uk',
    };
    expect(() => parseAccountConfig({ sms: { ...account, logRetentionDays: 9999 } })).toThrow(
      /sms\.logRetentionDays/,
    );
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, logRetentionDays: 3653 })).not.toThrow();
  });

  it.each([
    [['86'], 'a country without a list of premium-rate ranges', '.0'],
    [[], 'no country at all', ''],
    [['44', '44'], 'a country twice', ''],
    [['44', '+44'], 'a code written with +', '.1'],
  ])('refuses allowedPhoneCountryCodes %j: %s', (codes, _case, at) => {
    refused(
      { agencyBounds: { allowedPhoneCountryCodes: codes, codesPerHour: 100 } },
      `agencyBounds.allowedPhoneCountryCodes${at}`,
    );
    expect(() => readAgencyBounds({ ALLOWED_PHONE_COUNTRY_CODES: codes.join(',') })).toThrow(
      /ALLOWED_PHONE_COUNTRY_CODES/,
    );
  });

  it('gives every function the stage’s phone countries and agency code budget, and alarms when a budget is spent', () => {
    const { template } = synthStage(PRODUCTION);
    // The routes' functions and the sweep (the event pipeline's functions register and text nobody).
    const functions = resourcesOf(template, 'AWS::Lambda::Function').filter(
      ([id, f]) => f.Properties.Environment?.Variables?.TABLE_NAME && !id.startsWith('Events'),
    );
    const alarm = resourcesOf(template, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.AlarmName === 'flight-booking-prod-AgencyCodeBudgetSpent',
    );
    const filter = resourcesOf(template, 'AWS::Logs::MetricFilter').find(
      ([, f]) => f.Properties.MetricTransformations[0].MetricName === 'AgencyCodeBudgetSpent',
    );

    expect(functions.length).toBe(routes.length + 1); // and the sweep
    for (const [, fn] of functions)
      expect(fn.Properties.Environment.Variables).toMatchObject({
        ALLOWED_PHONE_COUNTRY_CODES: '44,353',
        AGENCY_CODES_PER_HOUR: '200',
      });
    expect(alarm?.[1].Properties).toMatchObject({ Threshold: 1, MetricName: 'AgencyCodeBudgetSpent' });
    expect(filter?.[1].Properties.FilterPattern).toBe('{ $.message = "agency code budget spent" }');
  });

  it.each(['12345', 'FB', 'FlightBooking1', 'Flight-Bk'])(
    'refuses the SMS sender id %s: 3-11 letters or digits, at least one a letter',
    (senderId) => {
      refused({ smsSenderId: senderId }, 'smsSenderId');
      expect(() =>
        readSenderConfig({ SES_FROM_ADDRESS: 'a@acme-travel.co.uk', SMS_SENDER_ID: senderId }),
      ).toThrow(/SMS_SENDER_ID/);
    },
  );

  it('takes the same sender ids in the stage file and in the function’s environment', () => {
    for (const senderId of ['ABC', 'Flight4You', 'F1234567890']) {
      expect(parseStageConfig('prod', { ...PRODUCTION_FILE, smsSenderId: senderId }).smsSenderId).toBe(
        senderId,
      );
      expect(
        readSenderConfig({ SES_FROM_ADDRESS: 'a@acme-travel.co.uk', SMS_SENDER_ID: senderId }).SMS_SENDER_ID,
      ).toBe(senderId);
    }
  });

  it.each([
    ['port 99999', 'https://agents.acme-travel.co.uk:99999'],
    ['port 0', 'https://agents.acme-travel.co.uk:0'],
    ['the default port, which browsers leave out', 'https://agents.acme-travel.co.uk:443'],
    ['an upper-case host, which browsers lower-case', 'https://Agents.acme-travel.co.uk'],
  ])('refuses a CORS origin with %s: it would never match a browser’s Origin', (_case, origin) => {
    refused({ corsOrigins: [origin] }, 'corsOrigins.0');
  });

  it('takes an origin with a port in range', () => {
    expect(
      parseStageConfig('prod', { ...PRODUCTION_FILE, corsOrigins: ['https://agents.acme-travel.co.uk:8443'] })
        .corsOrigins,
    ).toEqual(['https://agents.acme-travel.co.uk:8443']);
  });

  it.each([
    ['10.0.0.1', 'must be a CIDR range'],
    ['192.0.2.1/24', 'has host bits set: write 192.0.2.0/24'],
    ['0.0.0.0/0', 'prefix from /1 to /32'],
    ['2001:db8::1/32', 'bits set beyond /32'],
    ['::ffff:192.0.2.1/128', 'IPv6 in hex groups only'],
    ['example.com/32', 'must start with an IPv4 or IPv6 address'],
  ])('refuses the blocked address %s at synth, saying why', (cidr, reason) => {
    refused({ blockedAddresses: ['198.51.100.0/24', cidr] }, 'blockedAddresses.1');
    expect(() => parseStageConfig('prod', { ...PRODUCTION_FILE, blockedAddresses: [cidr] })).toThrow(reason);
  });

  it('refuses a WAF limit above what the stage throttle serves in 5 minutes: one client could take it all', () => {
    // 10 requests per second is 3,000 per 5 minutes; the committed per-address limit is 2,000.
    refused({ throttle: { ratePerSecond: 5, burst: 10 } }, 'waf.requestsPerAddressPer5Minutes');
    expect(() =>
      parseStageConfig('prod', { ...PRODUCTION_FILE, throttle: { ratePerSecond: 5, burst: 10 } }),
    ).toThrow(/more than the stage throttle allows in 5 minutes \(1500\)/);
    expect(() =>
      parseStageConfig('prod', { ...PRODUCTION_FILE, throttle: { ratePerSecond: 10, burst: 10 } }),
    ).not.toThrow();
  });

  it('refuses an SES configuration set name SES would refuse', () => {
    refused({ sesConfigurationSet: 'sign in' }, 'sesConfigurationSet');
    refused({ sesConfigurationSet: 'x'.repeat(65) }, 'sesConfigurationSet');
  });
});
