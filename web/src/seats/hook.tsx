import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import type { Offer } from '../offers.ts';
import './seats.css';

type Panel = ComponentType<{ offer: Offer }>;

/**
 * The Book screen's bags and seats: a button until opened, then the panel (panel.tsx, with the seat
 * maps), loaded only then, so the first screen never carries it (docs/console.md, "Bags and seats").
 */
export function BagsAndSeats({ offer }: { offer: Offer }) {
  const [panel, setPanel] = useState<Panel>();
  const [failed, setFailed] = useState(false);
  if (panel) {
    const Loaded = panel;
    return <Loaded offer={offer} />;
  }
  const open = async () => {
    setFailed(false);
    try {
      const { ExtrasPanel } = await import('./panel.tsx');
      setPanel(() => ExtrasPanel);
    } catch {
      setFailed(true);
    }
  };
  return (
    <section aria-label="Bags and seats" class="extras">
      <button type="button" class="secondary" onClick={() => void open()}>
        Choose bags and seats
      </button>
      {failed && <p role="alert">The seat map could not be loaded. Check the connection and try again.</p>}
    </section>
  );
}
