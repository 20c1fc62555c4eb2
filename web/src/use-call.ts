import { useRef, useState } from 'preact/hooks';
import type { Failure, Outcome } from './api.ts';

/**
 * One call at a time from a form or a button, with its progress and its failure: a second click
 * while the first is on its way does nothing (the guard is a ref, so even two clicks in one tick
 * send once). `run` answers the outcome, or undefined when a call was already running; a failure is
 * kept for showing unless the caller clears it (`setFailure(undefined)`) because it handled it.
 */
export function useCall() {
  const running = useRef(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<Failure>();
  const run = async <T>(call: () => Promise<Outcome<T>>): Promise<Outcome<T> | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setPending(true);
    setFailure(undefined);
    try {
      const outcome = await call();
      if (!outcome.ok) setFailure(outcome.failure);
      return outcome;
    } finally {
      running.current = false;
      setPending(false);
    }
  };
  return { pending, failure, setFailure, run };
}
