import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { otpChallengeKey } from '#shared/auth/otp-challenge-item.ts';
import { registerTestAgent, testTable } from '#test/helpers/agents.ts';
import { invoke } from '#test/helpers/api.ts';
import { capturedLogLines } from '#test/helpers/log-capture.ts';
import { readOutbox } from '#test/helpers/outbox.ts';

/**
 * send-otp as deployed: CODE_SENDER=aws, with SES and SNS stubbed at the SDK client (the only stubs in
 * the suite), asserting the exact command each adapter sends.
 */
const ses = mockClient(SESClient);
const sns = mockClient(SNSClient);
// The stubs are on the SDK's client classes, which outlive this file in its worker.
afterAll(() => {
  ses.restore();
  sns.restore();
});
Object.assign(process.env, {
  CODE_SENDER: 'aws',
  SES_FROM_ADDRESS: 'no-reply@flights.example.com',
  SMS_SENDER_ID: 'FlightBook',
});
type Handler = typeof import('#test/helpers/routes/auth/send-otp.ts')['handler'];
let sendOtp: Handler;
let verifyOtp: Handler;

beforeAll(async () => {
  sendOtp = (await import('#test/helpers/routes/auth/send-otp.ts')).handler;
  verifyOtp = (await import('#test/helpers/routes/auth/verify-otp.ts')).handler;
});

afterEach(() => {
  ses.reset();
  sns.reset();
});

const codeIn = (text: string | undefined) => /\b(\d{6})\b/.exec(text ?? '')?.[1] ?? '';

describe('code delivery through AWS', () => {
  it('logs each delivered code with its channel, stage and request only (what the code-sends alarm counts)', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-0' });
    const agent = await registerTestAgent();
    const before = capturedLogLines.length;

    await invoke(sendOtp, { body: { identifier: agent.identifier, type: 'EMAIL' } });

    const sent = capturedLogLines
      .slice(before)
      .map((line) => JSON.parse(line))
      .filter((line) => line.message === 'code sent');
    expect(sent).toEqual([
      {
        level: 'info',
        time: expect.any(String),
        stage: 'local',
        // Every line of a request carries its ids and whether it was a cold start.
        request_id: expect.any(String),
        lambda_request_id: expect.any(String),
        cold_start: expect.any(Boolean),
        message: 'code sent',
        channel: 'EMAIL',
      },
    ]);
    expect(capturedLogLines.slice(before).join('\n')).not.toContain(agent.identifier);
  });

  it('sends an e-mail code with SES SendEmail from the configured address', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    const agent = await registerTestAgent();

    const answer = await invoke(sendOtp, { body: { identifier: agent.identifier, type: 'EMAIL' } });

    expect(answer.status).toBe(202);
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    const body = input?.Message?.Body?.Text?.Data;
    const code = codeIn(body);
    expect(input).toEqual({
      Source: 'no-reply@flights.example.com',
      Destination: { ToAddresses: [agent.identifier] },
      Message: {
        Subject: { Data: 'Your Flight Booking sign-in code', Charset: 'UTF-8' },
        Body: {
          Text: {
            Data: `Your Flight Booking sign-in code is ${code}. It expires in 5 minutes.\n\nIf you did not ask to sign in, you can ignore this message.`,
            Charset: 'UTF-8',
          },
        },
      },
    });
    expect(sns.calls()).toHaveLength(0);
    expect(await readOutbox()).toHaveLength(0);

    const verified = await invoke(verifyOtp, { body: { identifier: agent.identifier, code } });
    expect(verified.status).toBe(200);
  });

  it('sends an SMS code with SNS Publish, transactional, with the sender id', async () => {
    sns.on(PublishCommand).resolves({ MessageId: 'm-2' });
    const phone = '+14155550123';
    await registerTestAgent(phone);

    const answer = await invoke(sendOtp, { body: { identifier: phone, type: 'PHONE' } });

    expect(answer.status).toBe(202);
    const calls = sns.commandCalls(PublishCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]?.args[0].input;
    const code = codeIn(input?.Message);
    expect(input).toEqual({
      PhoneNumber: phone,
      Message: `${code} is your Flight Booking sign-in code. It expires in 5 minutes.`,
      MessageAttributes: {
        'AWS.SNS.SMS.SMSType': { DataType: 'String', StringValue: 'Transactional' },
        'AWS.SNS.SMS.SenderID': { DataType: 'String', StringValue: 'FlightBook' },
      },
    });
    expect(ses.calls()).toHaveLength(0);
  });

  it('sends nothing through SES for an unknown identifier', async () => {
    const answer = await invoke(sendOtp, {
      body: { identifier: 'nobody-at-all@example.com', type: 'EMAIL' },
    });

    expect(answer.status).toBe(202);
    expect(ses.calls()).toHaveLength(0);
    expect(sns.calls()).toHaveLength(0);
  });

  it.each([
    ['SES', 'EMAIL'],
    ['SNS', 'PHONE'],
  ])('answers 503 when %s refuses, and voids the undelivered code', async (_provider, type) => {
    const failure = Object.assign(new Error('Daily message quota exceeded'), {
      name: 'SendingPausedException',
      $fault: 'client',
      $metadata: { httpStatusCode: 400 },
    });
    ses.on(SendEmailCommand).rejects(failure);
    sns.on(PublishCommand).rejects(failure);
    const identifier = type === 'EMAIL' ? 'unlucky@example.com' : '+14155550199';
    await registerTestAgent(identifier);

    const answer = await invoke(sendOtp, { body: { identifier, type } });

    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.headers['Retry-After']).toBe('30');
    expect(JSON.stringify(answer.body)).not.toContain('quota');
    const attempted =
      type === 'EMAIL'
        ? ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Message?.Body?.Text?.Data
        : sns.commandCalls(PublishCommand)[0]?.args[0].input.Message;
    const code = codeIn(attempted);
    const { Item } = await testTable.db.send(
      new GetCommand({ TableName: testTable.tableName, Key: otpChallengeKey(identifier) }),
    );
    expect(Item?.codeHash).toBeUndefined();
    const verified = await invoke(verifyOtp, { body: { identifier, code } });
    expect(verified.body.error.code).toBe('INVALID_CODE');
  });
});
