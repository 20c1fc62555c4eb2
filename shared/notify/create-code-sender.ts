import { AWS_CLIENT_OPTIONS } from '../aws-client-options.ts';
import { readSenderConfig } from '../config.ts';
import type { CodeSender } from './code-sender.ts';

/** `make` run once, on first use; its promise is shared by every later call. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

/**
 * The sender the configuration selects. Each channel's SDK client is loaded and created on its first
 * message, once per container: a cold start that sends an e-mail never loads SNS, nor one sending an
 * SMS SES (about 10 ms of init each, BENCHMARKS.md P1).
 */
export async function createCodeSender(env: NodeJS.ProcessEnv = process.env): Promise<CodeSender> {
  const config = readSenderConfig(env);
  if (config.CODE_SENDER === 'outbox' && config.DATA_DIR) {
    const { outboxCodeSender } = await import('./outbox-sender.ts');
    return outboxCodeSender(config.DATA_DIR);
  }
  const email = once(async () => {
    const [{ SESClient }, { sesCodeSender }] = await Promise.all([
      import('@aws-sdk/client-ses'),
      import('./ses-sender.ts'),
    ]);
    return sesCodeSender(new SESClient(AWS_CLIENT_OPTIONS), {
      from: config.SES_FROM_ADDRESS ?? '',
      configurationSet: config.SES_CONFIGURATION_SET,
    });
  });
  const sms = once(async () => {
    const [{ SNSClient }, { snsCodeSender }] = await Promise.all([
      import('@aws-sdk/client-sns'),
      import('./sns-sender.ts'),
    ]);
    return snsCodeSender(new SNSClient(AWS_CLIENT_OPTIONS), { senderId: config.SMS_SENDER_ID });
  });
  return {
    send: async (message) => (await (message.channel === 'EMAIL' ? email() : sms())).send(message),
  };
}
