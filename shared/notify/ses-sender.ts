import { type SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { type CodeSender, codeText } from './code-sender.ts';

/** E-mail codes through SES `SendEmail`, from the configured, verified sender identity. */
export function sesCodeSender(
  client: SESClient,
  options: { from: string; configurationSet?: string },
): CodeSender {
  return {
    async send({ to, code, validMinutes }) {
      const text = codeText(code, validMinutes);
      await client.send(
        new SendEmailCommand({
          Source: options.from,
          Destination: { ToAddresses: [to] },
          Message: {
            Subject: { Data: text.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: text.email, Charset: 'UTF-8' } },
          },
          ...(options.configurationSet && { ConfigurationSetName: options.configurationSet }),
        }),
      );
    },
  };
}
