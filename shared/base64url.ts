/** The base64url alphabet without padding (RFC 4648 §5), the only one the service writes. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * Decodes `text` only when it is exactly the spelling the service would have written: the base64url
 * alphabet, no padding, no whitespace, and zero unused bits in the last character. Node's own decoder
 * is lenient (it accepts `=`, the `+/` alphabet and any unused bits), which would give one id many
 * spellings; here decoding and re-encoding must give the same text back (docs/API.md §1).
 *
 * @example decodeCanonicalBase64url('AQI') // <Buffer 01 02>; 'AQJ', 'AQI=' and 'AQI ' → undefined
 */
export function decodeCanonicalBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}
