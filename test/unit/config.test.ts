import { describe, expect, it } from 'vitest';
import { ConfigError, readCoreConfig, readEventsConfig, readWebhookUrlPolicy } from '#shared/config.ts';

const base = { TABLE_NAME: 'flights', SIGNING_KEY_FILE: '/tmp/key' };

describe('readCoreConfig', () => {
  it('applies the documented defaults', () => {
    expect(readCoreConfig(base)).toEqual({
      ...base,
      TOKEN_ISSUER: 'flight-booking-api',
      TOKEN_AUDIENCE: 'flight-booking-agents',
      OTP_SEND_MIN_MS: 350,
      LOG_LEVEL: 'info',
      CORS_ALLOWED_ORIGINS: [],
      AWS_REGION: 'us-east-1',
      STAGE: 'local',
      ALLOWED_PHONE_COUNTRY_CODES: ['1', '33', '44', '49', '353'],
      AGENCY_CODES_PER_HOUR: 100,
    });
  });

  it('reads CORS origins as a trimmed list', () => {
    expect(
      readCoreConfig({ ...base, CORS_ALLOWED_ORIGINS: ' https://a.example , https://b.example,' })
        .CORS_ALLOWED_ORIGINS,
    ).toEqual(['https://a.example', 'https://b.example']);
  });

  it('fails naming the missing table', () => {
    expect(() => readCoreConfig({ SIGNING_KEY_FILE: '/tmp/key' })).toThrow(/TABLE_NAME/);
  });

  it('fails when no signing key source is configured: there is no built-in key', () => {
    expect(() => readCoreConfig({ TABLE_NAME: 'flights' })).toThrow(ConfigError);
    expect(() => readCoreConfig({ TABLE_NAME: 'flights' })).toThrow(
      /SIGNING_KEY_SECRET_ID.*SIGNING_KEY_FILE/,
    );
  });

  it('fails when both key sources are configured', () => {
    expect(() => readCoreConfig({ ...base, SIGNING_KEY_SECRET_ID: 'arn:secret' })).toThrow(/exactly one/);
  });

  it('fails on a malformed number', () => {
    expect(() => readCoreConfig({ ...base, OTP_SEND_MIN_MS: 'soon' })).toThrow(/OTP_SEND_MIN_MS/);
  });

  it.each([
    ['TABLE_NAME', '', 'must not be empty'],
    ['DYNAMODB_ENDPOINT', 'localhost 8000', 'must be a URL'],
    ['LOG_LEVEL', 'verbose', 'must be one of debug, info, warn, error'],
    ['OTP_SEND_MIN_MS', '1.5', 'must be an integer from 0 to 5000'],
    ['OTP_SEND_MIN_MS', ' ', 'must be an integer from 0 to 5000'],
    ['AGENCY_CODES_PER_HOUR', '0', 'must be an integer from 1 to 100000'],
    ['HOLD_MINUTES', '1441', 'must be a number from 0.05 to 1440'],
    ['ALLOWED_PHONE_COUNTRY_CODES', '44,86', 'must be distinct country calling codes'],
  ])('refuses %s=%j: %s', (name, value, message) => {
    expect(() => readCoreConfig({ ...base, [name]: value })).toThrow(`${name}: ${message}`);
  });

  it('names every bad variable in one message', () => {
    expect(() => readCoreConfig({ LOG_LEVEL: 'loud', SIGNING_KEY_FILE: '/tmp/key' })).toThrow(
      'invalid configuration: TABLE_NAME: is required; LOG_LEVEL: must be one of debug, info, warn, error',
    );
  });

  it('reads numbers, URLs and the deployed markers as given', () => {
    const config = readCoreConfig({
      ...base,
      DYNAMODB_ENDPOINT: 'http://localhost:8000',
      OTP_SEND_MIN_MS: '0',
      AGENCY_CODES_PER_HOUR: '5',
      ALLOWED_PHONE_COUNTRY_CODES: ' 44, 353',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      DYNAMODB_ENDPOINT: 'http://localhost:8000',
      OTP_SEND_MIN_MS: 0,
      AGENCY_CODES_PER_HOUR: 5,
      ALLOWED_PHONE_COUNTRY_CODES: ['44', '353'],
      LOG_LEVEL: 'debug',
    });
  });

  it('takes HOLD_MINUTES locally, in fractions too, and refuses it in a deployed function', () => {
    expect(readCoreConfig({ ...base, HOLD_MINUTES: '0.1' }).HOLD_MINUTES).toBe(0.1);
    expect(() => readCoreConfig({ ...base, HOLD_MINUTES: '0' })).toThrow(/HOLD_MINUTES/);
    expect(() =>
      readCoreConfig({ ...base, HOLD_MINUTES: '1', AWS_LAMBDA_FUNCTION_NAME: 'booking-create' }),
    ).toThrow(/HOLD_MINUTES: is for local runs and tests only/);
  });
});

describe('readEventsConfig and readWebhookUrlPolicy', () => {
  const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'events' };
  const deployed = { TABLE_NAME: 'flights', SES_FROM_ADDRESS: 'no-reply@example.com' };

  it('defaults to SES notices, the deployed URL checks and unscaled retry delays', () => {
    expect(readEventsConfig(deployed)).toMatchObject({
      NOTICE_SENDER: 'aws',
      WEBHOOK_URL_POLICY: 'deployed',
      EVENTS_TIME_SCALE: 1,
    });
    expect(readWebhookUrlPolicy({})).toBe('deployed');
  });

  it('reads the local settings outside Lambda', () => {
    const local = readEventsConfig({
      TABLE_NAME: 'flights',
      NOTICE_SENDER: 'file',
      DATA_DIR: '/tmp/data',
      WEBHOOK_URL_POLICY: 'local',
      EVENTS_TIME_SCALE: '0.001',
    });
    expect(local).toMatchObject({
      NOTICE_SENDER: 'file',
      WEBHOOK_URL_POLICY: 'local',
      EVENTS_TIME_SCALE: 0.001,
    });
  });

  it.each([
    [{ EVENTS_TIME_SCALE: '0.001' }, /EVENTS_TIME_SCALE: must be 1 in Lambda/],
    [{ WEBHOOK_URL_POLICY: 'local' }, /WEBHOOK_URL_POLICY: must be deployed in Lambda/],
    [{ NOTICE_SENDER: 'file', DATA_DIR: '/tmp' }, /NOTICE_SENDER/],
  ])('refuses %j in Lambda', (setting, message) => {
    expect(() => readEventsConfig({ ...deployed, ...lambda, ...setting })).toThrow(message);
  });

  it('refuses local webhook URLs in Lambda for the create route too', () => {
    expect(() => readWebhookUrlPolicy({ ...lambda, WEBHOOK_URL_POLICY: 'local' })).toThrow(
      /WEBHOOK_URL_POLICY/,
    );
  });

  it.each([
    [{ EVENTS_TIME_SCALE: '0' }, /EVENTS_TIME_SCALE/],
    [{ EVENTS_TIME_SCALE: 'fast' }, /EVENTS_TIME_SCALE/],
    [{ SES_FROM_ADDRESS: undefined }, /SES_FROM_ADDRESS/],
    [{ NOTICE_SENDER: 'file' }, /DATA_DIR/],
  ])('refuses %j', (setting, message) => {
    expect(() => readEventsConfig({ ...deployed, ...setting })).toThrow(message);
  });
});
