import { createHash, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SQSClient } from '@aws-sdk/client-sqs';

/** One SendMessage as SQS received it. */
export interface SentMessage {
  readonly QueueUrl: string;
  readonly MessageBody: string;
  readonly DelaySeconds?: number;
}

/**
 * A stand-in for SQS on 127.0.0.1 speaking its JSON wire protocol (`X-Amz-Target:
 * AmazonSQS.SendMessage`, answered with the body's MD5 the client checks), so the delivery queue's own
 * code and the real SDK client are what the tests exercise: it keeps every message sent, with the
 * delay asked for, refuses a delay SQS would refuse (outside 0–900 whole seconds), and hands nothing
 * back by itself.
 */
export async function startSqsStandIn() {
  const sent: SentMessage[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target'] ?? '');
      const input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as SentMessage;
      res.setHeader('content-type', 'application/x-amz-json-1.0');
      if (target !== 'AmazonSQS.SendMessage') {
        res.writeHead(400).end(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidAction' }));
        return;
      }
      const delay = input.DelaySeconds ?? 0;
      if (!Number.isInteger(delay) || delay < 0 || delay > 900) {
        // As SQS answers a delay outside 0–900 seconds.
        res.writeHead(400).end(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidParameterValue' }));
        return;
      }
      sent.push(input);
      const md5 = createHash('md5').update(input.MessageBody, 'utf8').digest('hex');
      res.writeHead(200).end(JSON.stringify({ MessageId: randomUUID(), MD5OfMessageBody: md5 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new SQSClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return {
    client,
    queueUrl: `${endpoint}/123456789012/flight-booking-deliveries`,
    sent,
    async close() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
