import { useState } from 'preact/hooks';

/**
 * Form drafts and the screens' state in sessionStorage (this tab only, gone when it closes): a reload,
 * or a session that ends mid-form, keeps what the agent typed. Never a token: the session is the
 * HttpOnly cookie. Signing out clears it all.
 */
const PREFIX = 'console:';

export function readStored<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(PREFIX + key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === undefined) sessionStorage.removeItem(PREFIX + key);
    else sessionStorage.setItem(PREFIX + key, JSON.stringify(value));
  } catch {
    // A full or disabled storage only loses the draft.
  }
}

/** Forgets every draft and screen state (signing out: the next agent on this browser sees none). */
export function clearStored(): void {
  try {
    for (const key of Object.keys(sessionStorage)) if (key.startsWith(PREFIX)) sessionStorage.removeItem(key);
  } catch {
    // Nothing stored.
  }
}

/** `useState` whose value is also a draft in sessionStorage under `key`. */
export function useDraft<T>(key: string, initial: () => T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => readStored<T>(key) ?? initial());
  const set = (next: T) => {
    writeStored(key, next);
    setValue(next);
  };
  return [value, set];
}
