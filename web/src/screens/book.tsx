export function BookScreen() {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Book</h1>
    </main>
  );
}
