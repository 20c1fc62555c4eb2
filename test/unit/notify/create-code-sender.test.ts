import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { mockClient } from 'aws-sdk-client-mock';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '#shared/config.ts';
import { createCodeSender } from '#shared/notify/create-code-sender.ts';

describe('createCodeSender', () => {
  it('uses AWS by default and then requires the SES sender address', async () => {
    await expect(createCodeSender({})).rejects.toThrow(/SES_FROM_ADDRESS: required when CODE_SENDER is aws/);
  });

  it('refuses the outbox inside Lambda: the deployed stack never uses it', async () => {
    const env = { CODE_SENDER: 'outbox', DATA_DIR: '/tmp', AWS_LAMBDA_FUNCTION_NAME: 'send-otp' };

    await expect(createCodeSender(env)).rejects.toThrow(ConfigError);
    await expect(createCodeSender(env)).rejects.toThrow(/never runs in Lambda/);
  });

  it('requires a data directory for the outbox', async () => {
    await expect(createCodeSender({ CODE_SENDER: 'outbox' })).rejects.toThrow(/DATA_DIR/);
  });

  it('refuses an SMS sender id SNS would reject', async () => {
    const env = { SES_FROM_ADDRESS: 'a@example.com', SMS_SENDER_ID: 'Far Too Long Name' };

    await expect(createCodeSender(env)).rejects.toThrow(/SMS_SENDER_ID/);
  });

  it('builds the AWS sender from a complete configuration', async () => {
    const sender = await createCodeSender({
      SES_FROM_ADDRESS: 'no-reply@example.com',
      AWS_REGION: 'eu-west-1',
    });

    expect(typeof sender.send).toBe('function');
  });

  it('sends each message on its own channel, creating each channel’s client on first use', async () => {
    const ses = mockClient(SESClient).on(SendEmailCommand).resolves({ MessageId: 'm' });
    const sns = mockClient(SNSClient).on(PublishCommand).resolves({ MessageId: 'm' });
    const sender = await createCodeSender({
      SES_FROM_ADDRESS: 'no-reply@example.com',
      SMS_SENDER_ID: 'FlightBook',
    });

    await sender.send({ channel: 'EMAIL', to: 'a@example.com', code: '123456', validMinutes: 5 });
    await sender.send({ channel: 'EMAIL', to: 'b@example.com', code: '654321', validMinutes: 5 });
    expect(sns.calls()).toHaveLength(0);
    await sender.send({ channel: 'SMS', to: '+447700900123', code: '111111', validMinutes: 5 });

    expect(ses.commandCalls(SendEmailCommand).map((call) => call.args[0].input.Destination)).toEqual([
      { ToAddresses: ['a@example.com'] },
      { ToAddresses: ['b@example.com'] },
    ]);
    expect(sns.commandCalls(PublishCommand).map((call) => call.args[0].input.PhoneNumber)).toEqual([
      '+447700900123',
    ]);
    ses.restore();
    sns.restore();
  });
});
