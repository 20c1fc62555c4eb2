import { useEffect, useRef, useState } from 'preact/hooks';
import { client, type Failure, fieldErrors, settle } from '../api.ts';
import { Countdown, ErrorNotice, Progress } from '../components.tsx';
import { identifierOf } from '../phone.ts';
import { type Agent, codeDigits, signedIn } from '../session.ts';

/** What each sign-in refusal means for the agent, said plainly (docs/console.md, Sign-in). */
const PLAIN: Record<string, string> = {
  INVALID_CODE: 'That code is not right, or it has expired. Check it, or ask for a new one.',
  TOO_MANY_ATTEMPTS: 'Too many wrong codes: this code no longer works. Ask for a new one.',
};

/** Asking for a code (a throttled ask still offers the code field), then verifying it. */
function useSignIn(onSignedIn: (agent: Agent) => void, endedAs: string | undefined) {
  const [identifier, setIdentifier] = useState(endedAs ?? '');
  const [code, setCode] = useState('');
  const [codeSent, setCodeSent] = useState(false);
  const [resendAt, setResendAt] = useState<string>();
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(false);

  const sendCode = async (event: Event) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(undefined);
    const outcome = await settle(
      client.POST('/api/auth/send-otp', {
        // A phone typed with spaces, dots, dashes or brackets goes as E.164 (docs/console.md, Forgiving input).
        body: identifierOf(identifier),
      }),
      { quiet: true },
    );
    setPending(false);
    if (outcome.ok) {
      setCodeSent(true);
      setResendAt(new Date(Date.now() + outcome.body.data.resend_after * 1000).toISOString());
      return;
    }
    setFailure(outcome.failure);
    if (outcome.failure.code === 'RATE_LIMITED') {
      // A code sent a moment ago still works: the code field stays offered.
      setCodeSent(true);
      setResendAt(new Date(Date.now() + (outcome.failure.retryAfter ?? 30) * 1000).toISOString());
    }
  };

  const verify = async (event: Event) => {
    event.preventDefault();
    if (pending) return;
    setPending(true);
    setFailure(undefined);
    // cookie_only: the answer carries no token at all; the session is the HttpOnly cookie alone.
    const outcome = await settle(
      client.POST('/api/auth/verify-otp', {
        body: { identifier: identifierOf(identifier).identifier, code, cookie_only: true },
      }),
      { quiet: true },
    );
    setPending(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    // Only the agent and the session's end are taken from the answer.
    const { agent } = outcome.body.data;
    signedIn(agent, outcome.body.data);
    onSignedIn(agent);
  };
  return { identifier, setIdentifier, code, setCode, codeSent, resendAt, failure, pending, sendCode, verify };
}

/** What sign-in says when a session ended without a sign-out (docs/console.md, "A working day"). */
const SESSION_ENDED = 'Your session ended — sign in to continue where you left off.';

/**
 * Sign-in: identifier, then the 6-digit code, verified with `cookie_only` (docs/API.md §3.2): the
 * service sets the `__Host-session` cookie and answers no token, so page script never holds one; only
 * the agent (who signed in, with what role) is taken from the answer. After a session that ended
 * (`endedAs`, its identifier), it says so and offers that identifier again.
 */
export function SignIn(props: { onSignedIn: (agent: Agent) => void; endedAs?: string | undefined }) {
  const { identifier, setIdentifier, code, setCode, codeSent, resendAt, failure, pending, sendCode, verify } =
    useSignIn(props.onSignedIn, props.endedAs);
  const fields = fieldErrors(failure);
  const identifierError = fields.get('identifier') ?? fields.get('type');
  const codeError = fields.get('code');
  const shown = failure && !identifierError && !codeError ? failure : undefined;

  return (
    <main id="main" class="narrow">
      <h1 tabIndex={-1}>Sign in</h1>
      {props.endedAs !== undefined && <p class="notice">{SESSION_ENDED}</p>}
      <IdentifierForm
        identifier={identifier}
        onInput={setIdentifier}
        error={identifierError}
        pending={pending}
        resendAt={codeSent ? resendAt : undefined}
        onSubmit={sendCode}
      />
      {failure?.code === 'RATE_LIMITED' && (
        <ErrorNotice failure={failure}>
          Too many codes were asked for. A new code can be asked for in {failure.retryAfter ?? 30} seconds; a
          code already sent still works.
        </ErrorNotice>
      )}
      {codeSent && (
        <CodeForm code={code} onInput={setCode} error={codeError} pending={pending} onSubmit={verify} />
      )}
      {shown && shown.code !== 'RATE_LIMITED' && (
        <ErrorNotice failure={shown}>{PLAIN[shown.code]}</ErrorNotice>
      )}
      <Progress pending={pending} />
    </main>
  );
}

/** The identifier to send a code to; once sent, when the next may be asked for. */
function IdentifierForm(props: {
  identifier: string;
  onInput: (identifier: string) => void;
  error: string | undefined;
  pending: boolean;
  resendAt: string | undefined;
  onSubmit: (event: Event) => void;
}) {
  const { identifier, onInput, error, pending, resendAt, onSubmit } = props;
  return (
    <form onSubmit={onSubmit} noValidate>
      <label for="identifier">E-mail or phone</label>
      <input
        id="identifier"
        name="identifier"
        autoComplete="username"
        required
        value={identifier}
        onInput={(event) => onInput(event.currentTarget.value)}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby="identifier-hint identifier-error"
      />
      <p id="identifier-hint" class="hint">
        An e-mail address, or a phone number with its country code (+44…).
      </p>
      {error && (
        <p id="identifier-error" class="field-error">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending || identifier.trim() === ''}>
        Send code
      </button>
      {resendAt && (
        <p class="hint">
          A new code can be asked for in <Countdown until={resendAt} expired="a moment: ask again now" />.
        </p>
      )}
    </form>
  );
}

/** The 6-digit code, digits only. */
function CodeForm(props: {
  code: string;
  onInput: (code: string) => void;
  error: string | undefined;
  pending: boolean;
  onSubmit: (event: Event) => void;
}) {
  const { code, onInput, error, pending, onSubmit } = props;
  const input = useRef<HTMLInputElement>(null);
  // Once the code is on its way, the next thing to type is the code.
  useEffect(() => input.current?.focus(), []);
  return (
    <form onSubmit={onSubmit} noValidate>
      <p>If this is a registered agent, a 6-digit code is on its way. It works for 5 minutes.</p>
      <label for="code">Code</label>
      <input
        ref={input}
        id="code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onInput={(event) => {
          const digits = codeDigits(event.currentTarget.value);
          event.currentTarget.value = digits;
          onInput(digits);
        }}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby="code-error"
      />
      {error && (
        <p id="code-error" class="field-error">
          {error}
        </p>
      )}
      <button type="submit" disabled={pending || code.length !== 6}>
        Sign in
      </button>
    </form>
  );
}
