import type { Agent } from '#shared/agency/agent-item.ts';
import type { Role } from '#shared/auth/roles.ts';
import { handler as sendOtp } from '#test/helpers/routes/auth/send-otp.ts';
import { handler as verifyOtp } from '#test/helpers/routes/auth/verify-otp.ts';
import { registerTestAgent, uniqueEmail } from './agents.ts';
import { invoke } from './api.ts';
import { lastCodeFor } from './outbox.ts';

export interface TestSession {
  token: string;
  agent: Agent;
  /** `Authorization` header carrying the token. */
  headers: { Authorization: string };
}

/** Registers a fresh agent and signs it in through the real send-otp and verify-otp handlers. */
export async function signIn(
  options: { agencyId?: string; role?: Role; name?: string } = {},
): Promise<TestSession> {
  const agent = await registerTestAgent(uniqueEmail(), options);
  await invoke(sendOtp, {
    path: '/api/auth/send-otp',
    body: { identifier: agent.identifier, type: 'EMAIL' },
  });
  const code = await lastCodeFor(agent.identifier);
  const answer = await invoke(verifyOtp, {
    path: '/api/auth/verify-otp',
    body: { identifier: agent.identifier, code },
  });
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status}`);
  const token: string = answer.body.data.verification_token;
  return { token, agent, headers: { Authorization: `Bearer ${token}` } };
}
