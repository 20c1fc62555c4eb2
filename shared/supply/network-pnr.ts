import { randomInt } from 'node:crypto';

/**
 * The built-in network's record locator, which it issues as an airline does (Duffel's come from the
 * airline): six upper-case letters from a CSPRNG (308 million possibilities). Uniqueness is enforced on
 * write, by the PNR item's condition in the seats' transaction, which draws again when it fails.
 *
 * @example newPnr() // 'QZKTRB'
 */
export function newPnr(): string {
  let pnr = '';
  for (let i = 0; i < 6; i++) pnr += String.fromCharCode(65 + randomInt(26));
  return pnr;
}
