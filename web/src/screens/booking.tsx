/** One booking (CONSOLE.md): built on the console-stack branch. */
export function BookingScreen({ bookingId }: { bookingId: string }) {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Booking {bookingId}</h1>
    </main>
  );
}
