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
});
