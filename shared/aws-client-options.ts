/**
 * The options every AWS SDK client is built with: bounded retries (3 attempts) and a deadline on every
 * call, so a sick dependency turns into a 503 well inside the function's timeout. One place, so the
 * DynamoDB, SES, SNS and SQS clients cannot drift apart; the Secrets Manager read at init goes through
 * the DynamoDB client's (shared/secret-value.ts).
 */
export const AWS_CLIENT_OPTIONS = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: 1000, requestTimeout: 3000 },
} as const;
