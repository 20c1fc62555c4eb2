import { PublishCommand, type SNSClient } from '@aws-sdk/client-sns';
import { type CodeSender, codeText } from './code-sender.ts';

/** SMS codes through SNS, marked transactional (delivery priority over cost), with an optional sender id. */
export function snsCodeSender(client: SNSClient, options: { senderId?: string } = {}): CodeSender {
  return {
    async send({ to, code, validMinutes }) {
      await client.send(
        new PublishCommand({
          PhoneNumber: to,
          Message: codeText(code, validMinutes).sms,
          MessageAttributes: {
            'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
            ...(options.senderId && {
              'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: options.senderId },
            }),
          },
        }),
      );
    },
  };
}
