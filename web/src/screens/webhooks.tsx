/** The agency's webhook endpoints, ADMIN only (CONSOLE.md): built on the console-stack branch. */
export function WebhooksScreen() {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Webhooks</h1>
    </main>
  );
}
