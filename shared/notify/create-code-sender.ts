import * as z from 'zod';
import { AWS_CLIENT_OPTIONS } from '../aws-client-options.ts';
import { readEnv } from '../config.ts';
import type { CodeSender } from './code-sender.ts';

const SenderConfig = z
  .object({
    /** `aws`: SES and SNS. `outbox`: local file and console, refused inside Lambda. */
    CODE_SENDER: z.enum(['aws', 'outbox']).default('aws'),
    SES_FROM_ADDRESS: z.email().optional(),
    SES_CONFIGURATION_SET: z.string().min(1).optional(),
    SMS_SENDER_ID: z
      .string()
      .regex(/^[A-Za-z0-9]{1,11}$/, 'must be 1-11 letters or digits')
      .optional(),
    DATA_DIR: z.string().min(1).optional(),
    AWS_LAMBDA_FUNCTION_NAME: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.CODE_SENDER === 'aws' && !env.SES_FROM_ADDRESS) {
      ctx.addIssue({
        code: 'custom',
        path: ['SES_FROM_ADDRESS'],
        message: 'required when CODE_SENDER is aws',
      });
    }
    if (env.CODE_SENDER === 'outbox' && !env.DATA_DIR) {
      ctx.addIssue({ code: 'custom', path: ['DATA_DIR'], message: 'required when CODE_SENDER is outbox' });
    }
    if (env.CODE_SENDER === 'outbox' && env.AWS_LAMBDA_FUNCTION_NAME) {
      ctx.addIssue({ code: 'custom', path: ['CODE_SENDER'], message: 'the outbox never runs in Lambda' });
    }
  });

/**
 * The sender the configuration selects. SDK clients are created here, once per cold start, and only
 * in the function that sends codes.
 */
export async function createCodeSender(env: NodeJS.ProcessEnv = process.env): Promise<CodeSender> {
  const config = readEnv(SenderConfig, env);
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
