import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { TableHandle } from '../../db/client.ts';

/**
 * The offer-booked marker (`OFFER#<sha256 of the sealed bytes>` / `BOOKED`): offers are sealed ids,
 * not items, so booking one writes this marker, and an offer books once. Keyed on the quote's
 * identity, never on the id's text; kept an hour past the offer's expiry.
 */
const bookedOfferKey = (offerIdentity: string) => ({ pk: `OFFER#${offerIdentity}`, sk: 'BOOKED' });

/** The Put that marks the offer booked by `bookingId`; fails if it already is. */
export function bookedOfferMarker(
  tableName: string,
  offer: { identity: string; expiresAt: number },
  bookingId: string,
) {
  return {
    TableName: tableName,
    Item: { ...bookedOfferKey(offer.identity), booking_id: bookingId, ttl: offer.expiresAt + 3600 },
    ConditionExpression: 'attribute_not_exists(pk)',
  };
}

/** Whether the offer with this identity was booked. */
export async function isOfferBooked(store: TableHandle, offerIdentity: string): Promise<boolean> {
  const marker = await store.db.send(
    new GetCommand({
      TableName: store.tableName,
      Key: bookedOfferKey(offerIdentity),
      ConsistentRead: true,
      ProjectionExpression: 'pk',
    }),
  );
  return marker.Item !== undefined;
}

/** The Delete that frees an offer whose booking failed at the supplier, so it can be booked again. */
export function bookedOfferRelease(tableName: string, offerIdentity: string, bookingId: string) {
  return {
    TableName: tableName,
    Key: bookedOfferKey(offerIdentity),
    ConditionExpression: 'booking_id = :booking',
    ExpressionAttributeValues: { ':booking': bookingId },
  };
}
