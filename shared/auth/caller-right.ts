import type { TableHandle } from '../db/client.ts';
import { ForbiddenError, UnauthorizedError } from '../errors.ts';
import type { Session } from './session.ts';
import { readSessionState, type StateCondition, sessionStateKey } from './session-state-item.ts';
import { isSessionValid } from './session-token.ts';

/**
 * The caller's right to administer its agency, as a condition on its own session state item
 * (session-state-item.ts owns the item): what agent changes made through the API carry inside their
 * transaction, so the right is checked at the moment of the write, not only at the session check.
 */

/**
 * The condition that the agent acting through `caller`'s session may still administer its agency, as
 * the session state says at the moment of the write: active, ADMIN, in the same agency, the token
 * issued at or after `valid_after` and not logged out. A change made in an ADMIN's name carries it in
 * the same transaction, so a demoted, deactivated or signed-out ADMIN's racing request cannot apply.
 */
export function callerMayAdminister(
  caller: Pick<Session, 'agencyId' | 'issuedAt' | 'tokenId'>,
): StateCondition {
  return {
    expression:
      'active = :callerActive AND #callerRole = :callerRole AND agency_id = :callerAgency AND valid_after <= :callerIat AND attribute_not_exists(revoked.#callerJti)',
    names: { '#callerRole': 'role', '#callerJti': caller.tokenId },
    values: {
      ':callerActive': true,
      ':callerRole': 'ADMIN',
      ':callerAgency': caller.agencyId,
      ':callerIat': caller.issuedAt,
    },
  };
}

/** The ConditionCheck of {@link callerMayAdminister} on the caller's own state item. */
export function callerCheck(
  tableName: string,
  caller: Pick<Session, 'agentId' | 'agencyId' | 'issuedAt' | 'tokenId'>,
) {
  const condition = callerMayAdminister(caller);
  return {
    TableName: tableName,
    Key: sessionStateKey(caller.agentId),
    ConditionExpression: condition.expression,
    ExpressionAttributeNames: condition.names,
    ExpressionAttributeValues: condition.values,
  };
}

/**
 * The caller lost its right to act between its session check and the write: 401 when its session
 * ended (deactivated, logged out everywhere, left the agency), 403 when it is no longer an ADMIN.
 */
export async function refusedCaller(store: TableHandle, session: Session): Promise<Error> {
  const state = await readSessionState(store, session.agentId);
  return isSessionValid(session, state)
    ? new ForbiddenError()
    : new UnauthorizedError({ tokenPresented: true });
}
