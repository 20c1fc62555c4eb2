import { type AnchorHTMLAttributes, Component, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Failure } from './api.ts';
import { address } from './base.ts';
import { navigate } from './router.ts';

/**
 * An in-app link to the app address `href`: a real `<a href>` below the page's base (new tab, copy
 * link work) that navigates without a reload.
 */
export function Link({ href, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return <a {...props} href={address(href)} onClick={onClick} />;
}

/** A failed call, said plainly, with the request id support needs. */
export function ErrorNotice({
  failure,
  children,
}: {
  failure: Failure | undefined;
  children?: ComponentChildren;
}) {
  if (!failure) return null;
  return (
    <div class="error" role="alert">
      <p>{children ?? failure.message}</p>
      {failure.requestId && (
        <p class="request-id">
          Request id: <code>{failure.requestId}</code>
        </p>
      )}
    </div>
  );
}

/** Progress for a slow answer: shown once a call has taken 300 ms, so quick answers do not flicker. */
export function Progress({ pending, label = 'Working…' }: { pending: boolean; label?: string }) {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!pending) return setSlow(false);
    const timer = setTimeout(() => setSlow(true), 300);
    return () => clearTimeout(timer);
  }, [pending]);
  return (
    <p class="progress" role="status">
      {pending && slow && (
        <>
          <span class="spinner" aria-hidden="true" /> {label}
        </>
      )}
    </p>
  );
}

/** The time now, updated every `everyMs`: countdowns re-render alone, not the list around them. */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** `m:ss` (or `h:mm:ss`) until `until`, 0:00 once past. */
function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A live countdown to `until` (ISO time), then `expired` (and `onExpired` is called, once). */
export function Countdown(props: { until: string; expired: ComponentChildren; onExpired?: () => void }) {
  const { until, expired, onExpired } = props;
  const now = useNow();
  const left = Date.parse(until) - now;
  const over = left <= 0;
  // Dependencies: once, when the time runs out.
  useEffect(() => {
    if (over) onExpired?.();
  }, [over]);
  return left > 0 ? <time dateTime={until}>{formatCountdown(left)}</time> : expired;
}

/**
 * Whatever a screen throws while it renders (an answer of a shape it did not expect, an address it
 * cannot read) shows a plain message with a way back, never a blank page. The links load the page
 * anew, so nothing of the failed screen's state is kept.
 */
export class Boundary extends Component<{ children: ComponentChildren }, { failed: boolean }> {
  override state = { failed: false };

  static override getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main">
        <h1 tabIndex={-1}>Something went wrong</h1>
        <p role="alert">
          This screen could not be shown. <a href={address('/search')}>Go to Search</a> or{' '}
          <a href={location.href}>reload the page</a>.
        </p>
      </main>
    );
  }
}

/**
 * Asks before something that one click must not do alone (a role change, a deactivation, a delete):
 * a modal dialog naming what it does, focus on the way out, Escape or `keep` cancels. It stays open
 * while `onConfirm` runs (so the focus has somewhere to be), and the caller closes it when done.
 */
export function ConfirmDialog(props: {
  title: string;
  children: ComponentChildren;
  confirm: string;
  keep: string;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { title, children, confirm, keep, onConfirm, onClose } = props;
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const wayOut = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const shown = dialog.current;
    const opener = document.activeElement as HTMLElement | null;
    shown?.showModal();
    wayOut.current?.focus();
    // Closed before it leaves the page, and the focus back on what opened it (while it is there).
    return () => {
      shown?.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="dialog"
      aria-labelledby="confirm-title"
      aria-describedby="confirm-text"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <h2 id="confirm-title">{title}</h2>
      <p id="confirm-text">{children}</p>
      <Progress pending={busy} />
      <div class="row">
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void onConfirm();
          }}
        >
          {confirm}
        </button>
        <button type="button" class="secondary" ref={wayOut} onClick={onClose}>
          {keep}
        </button>
      </div>
    </dialog>
  );
}

/** A field's error, beside it (the field names it in `aria-describedby`); empty when there is none. */
export function FieldError({ id, text }: { id: string; text: string | undefined }) {
  return (
    <p id={id} class="field-error">
      {text}
    </p>
  );
}

/**
 * A date typed in ISO order whatever the browser's locale (docs/decisions.md): a text field with the
 * pattern, checked by the page (time.ts isIsoDate), never the locale-ordered `type="date"`.
 */
export const ISO_DATE_INPUT = {
  type: 'text',
  inputMode: 'numeric',
  pattern: '\\d{4}-\\d{2}-\\d{2}',
  placeholder: 'YYYY-MM-DD',
  autoComplete: 'off',
  maxLength: 10,
} as const;

/** A labelled date field (`YYYY-MM-DD`, {@link ISO_DATE_INPUT}) with its error beside it. */
export function DateField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const { id, label, value, onChange, error } = props;
  return (
    <div>
      <label for={id}>
        {label} <span class="hint">(YYYY-MM-DD)</span>
      </label>
      <input
        id={id}
        {...ISO_DATE_INPUT}
        value={value}
        onInput={(event) => onChange(event.currentTarget.value.trim())}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={`${id}-error`}
      />
      <FieldError id={`${id}-error`} text={error} />
    </div>
  );
}

/** Moves the focus to the first field of `scope` marked invalid, once it is drawn. */
export function focusFirstInvalid(scope: ParentNode | null | undefined): void {
  requestAnimationFrame(() => {
    const first = scope?.querySelector<HTMLElement>('[aria-invalid="true"]');
    first?.focus();
  });
}
