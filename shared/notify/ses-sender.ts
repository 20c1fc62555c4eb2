import { type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { type CodeSender, codeText } from './code-sender.ts';

/** E-mail codes through SES (v2 `SendEmail`), from the configured, verified sender identity. */
export function sesCodeSender(
  client: SESv2Client,
  options: { from: string; configurationSet?: string },
): CodeSender {
  return {
    async send({ to, code, validMinutes }) {
      const text = codeText(code, validMinutes);
      await client.send(
        new SendEmailCommand({
          FromEmailAddress: options.from,
          Destination: { ToAddresses: [to] },
          Content: {
            Simple: {
              Subject: { Data: text.subject, Charset: 'UTF-8' },
              Body: { Text: { Data: text.email, Charset: 'UTF-8' } },
            },
          },
          ...(options.configurationSet && { ConfigurationSetName: options.configurationSet }),
        }),
      );
    },
  };
}
