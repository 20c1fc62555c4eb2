/** A sign-in code on its way to an agent. */
interface CodeMessage {
  channel: 'EMAIL' | 'SMS';
  /** Normalised e-mail address or E.164 number. */
  to: string;
  code: string;
  /** How long the code works, for the words the agent reads. */
  validMinutes: number;
}

/** The delivery port: SES for e-mail and SNS for SMS when deployed, the outbox locally. */
export interface CodeSender {
  /** Resolves once the provider has accepted the message; rejects otherwise. */
  send(message: CodeMessage): Promise<void>;
}

const PRODUCT_NAME = 'Flight Booking';

/** The words an agent reads, the same on every channel. */
export function codeText(code: string, validMinutes: number) {
  return {
    subject: `Your ${PRODUCT_NAME} sign-in code`,
    email: `Your ${PRODUCT_NAME} sign-in code is ${code}. It expires in ${validMinutes} minutes.\n\nIf you did not ask to sign in, you can ignore this message.`,
    sms: `${code} is your ${PRODUCT_NAME} sign-in code. It expires in ${validMinutes} minutes.`,
  };
}
