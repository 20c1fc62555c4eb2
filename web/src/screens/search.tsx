import type { Place } from '../router.ts';

export function SearchScreen(_props: { place: Place }) {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Search flights</h1>
    </main>
  );
}
