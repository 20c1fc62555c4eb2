import type { Agent } from '../session.ts';

/** The agency's agents, ADMIN only (CONSOLE.md): built on the console-stack branch. */
export function AgentsScreen(_props: { agent: Agent }) {
  return (
    <main id="main">
      <h1 tabIndex={-1}>Agents</h1>
    </main>
  );
}
