import { describe, expect, it } from 'vitest';
import {
  DEVELOPMENT,
  type Json,
  PRODUCTION,
  PRODUCTION_FILE,
  resourcesOf,
  synthStage,
} from '#test/helpers/stage-files.ts';
import { parseStageConfig } from '../../infra/stage-config.ts';

describe('infra: traveller notices have their own SES configuration set', () => {
  const { template } = synthStage(PRODUCTION);
  const sets = resourcesOf(template, 'AWS::SES::ConfigurationSet');
  const destinations = resourcesOf(template, 'AWS::SES::ConfigurationSetEventDestination');
  const alarm = (id: string) =>
    resourcesOf(template, 'AWS::CloudWatch::Alarm').find(
      ([, a]) => a.Properties.AlarmName === `flight-booking-prod-${id}`,
    )?.[1].Properties;
  const environments: Json[] = resourcesOf(template, 'AWS::Lambda::Function').map(
    ([, f]) => f.Properties.Environment?.Variables ?? {},
  );

  it('creates the set the stage file names, with its own CloudWatch dimension value', () => {
    expect(PRODUCTION.sesNoticesConfigurationSet).toBe('notices');
    const [noticeId, notice] = sets.find(([, s]) => s.Properties.Name === 'notices') ?? ['', {} as Json];
    expect(notice.Properties).toMatchObject({
      DeliveryOptions: { TlsPolicy: 'REQUIRE' },
      SuppressionOptions: { SuppressedReasons: ['BOUNCE', 'COMPLAINT'] },
    });
    const destination = destinations.find(([, d]) => d.Properties.ConfigurationSetName.Ref === noticeId)?.[1];
    expect(destination?.Properties.EventDestination.CloudWatchDestination.DimensionConfigurations).toEqual([
      { DimensionName: 'Stage', DimensionValueSource: 'messageTag', DefaultDimensionValue: 'prod-notices' },
    ]);
  });

  it('sends notices through it, and codes through the sign-in set', () => {
    // The event functions and booking/resend send notices (NOTICE_SENDER); send-otp is the other sender.
    const eventFunctions = environments.filter((env) => env.NOTICE_SENDER);
    const others = environments.filter((env) => !env.NOTICE_SENDER && env.SES_CONFIGURATION_SET);
    expect(eventFunctions.length).toBeGreaterThan(0);
    expect(eventFunctions.map((env) => env.SES_CONFIGURATION_SET)).toEqual(
      eventFunctions.map(() => 'notices'),
    );
    expect(others.map((env) => env.SES_CONFIGURATION_SET)).toEqual(['sign-in']);
    const policies = resourcesOf(template, 'AWS::IAM::Policy').map(([, p]) => JSON.stringify(p));
    const eventsPolicy = policies.find((p) => p.includes('ses:SendEmail') && p.includes('notices'));
    expect(eventsPolicy).toBeDefined();
    expect(eventsPolicy).not.toContain('configuration-set/sign-in');
  });

  it('alarms on the notices’ bounce rate and complaints apart from the sign-in e-mails', () => {
    expect(alarm('NoticeComplaints')).toMatchObject({
      Namespace: 'AWS/SES',
      MetricName: 'Complaint',
      Dimensions: [{ Name: 'Stage', Value: 'prod-notices' }],
      Threshold: 1,
    });
    const bounce = alarm('NoticeBounceRate');
    expect(bounce?.Threshold).toBe(5);
    expect(JSON.stringify(bounce?.Metrics)).toContain('{"Name":"Stage","Value":"prod-notices"}');
    expect(JSON.stringify(alarm('EmailBounceRate')?.Metrics)).not.toContain('prod-notices');
  });

  it('refuses a notices set named like the sign-in set, and dev has neither', () => {
    expect(() =>
      parseStageConfig('prod', { ...PRODUCTION_FILE, sesNoticesConfigurationSet: 'sign-in' }),
    ).toThrow(/sesNoticesConfigurationSet.*must differ from sesConfigurationSet/);
    const dev = synthStage(DEVELOPMENT).template;
    dev.resourceCountIs('AWS::SES::ConfigurationSet', 0);
    // Only the alarm on notices SES did not take, which every stage has: no bounce or complaint alarm.
    expect(JSON.stringify(dev.findResources('AWS::CloudWatch::Alarm'))).not.toMatch(
      /Notice(BounceRate|Complaints)/,
    );
  });
});
