import type { Place } from '../router.ts';

/** The agency's bookings (CONSOLE.md): built on the console-stack branch. */
export function BookingsScreen(_props: { place: Place }) {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Bookings</h1>
    </main>
  );
}
