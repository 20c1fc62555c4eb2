import { AWS_CLIENT_OPTIONS } from '../aws-client-options.ts';
import { readSenderConfig } from '../config.ts';
import type { CodeSender } from './code-sender.ts';

/**
 * The sender the configuration selects. SDK clients are created here, once per cold start, and only
 * in the function that sends codes.
 */
export async function createCodeSender(env: NodeJS.ProcessEnv = process.env): Promise<CodeSender> {
  const config = readSenderConfig(env);
  if (config.CODE_SENDER === 'outbox' && config.DATA_DIR) {
    const { outboxCodeSender } = await import('./outbox-sender.ts');
    return outboxCodeSender(config.DATA_DIR);
  }
  const [{ SESClient }, { SNSClient }, { sesCodeSender }, { snsCodeSender }] = await Promise.all([
    import('@aws-sdk/client-ses'),
    import('@aws-sdk/client-sns'),
    import('./ses-sender.ts'),
    import('./sns-sender.ts'),
  ]);
  const email = sesCodeSender(new SESClient(AWS_CLIENT_OPTIONS), {
    from: config.SES_FROM_ADDRESS ?? '',
    configurationSet: config.SES_CONFIGURATION_SET,
  });
  const sms = snsCodeSender(new SNSClient(AWS_CLIENT_OPTIONS), { senderId: config.SMS_SENDER_ID });
  return { send: (message) => (message.channel === 'EMAIL' ? email : sms).send(message) };
}
