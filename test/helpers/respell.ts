import fc from 'fast-check';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** The prefixes of the ids the service issues; what follows is base64url. */
const ID_PREFIX = /^((?:off|bkg|agt)_)?(.*)$/s;

/** How many bits of the last character of an unpadded base64url string of `length` carry no data. */
function unusedBits(length: number): number {
  return [0, 0, 4, 2][length % 4] ?? 0;
}

/**
 * Other spellings of an issued id or token that a lenient base64url decoder reads as the same bytes,
 * each named by the trick it plays (docs/API.md §1: every one of them must be an unknown id). `text` is
 * an id like `off_…`, a cursor, or a compact JWS (`a.b.c`, re-spelled in its last part).
 */
export function respellings(text: string): Record<string, string> {
  const last = text.at(-1) ?? '';
  const index = ALPHABET.indexOf(last);
  const [, prefix = '', body = ''] = ID_PREFIX.exec(text) ?? [];
  const tail = body.slice(body.lastIndexOf('.') + 1);
  const spare = unusedBits(tail.length);
  const spellings: Record<string, string> = {
    'one = of padding': `${text}=`,
    'two = of padding': `${text}==`,
    'a trailing dot': `${text}.`,
    'a trailing space': `${text} `,
    'a leading space': ` ${text}`,
    'a trailing newline': `${text}\n`,
  };
  if (/[-_]/.test(body)) {
    spellings['the +/ alphabet'] = `${prefix}${body.replaceAll('-', '+').replaceAll('_', '/')}`;
  }
  if (spare > 0 && index >= 0) {
    // Flipping the lowest unused bit leaves every decoded byte as it was.
    spellings['changed unused bits'] = `${text.slice(0, -1)}${ALPHABET[index ^ 1]}`;
  }
  return spellings;
}

/** fast-check: one of the re-spellings of `text`, or several applied on top of each other. */
export function respelled(text: string): fc.Arbitrary<string> {
  const kinds = Object.values(respellings(text));
  return fc.oneof(
    fc.constantFrom(...kinds),
    fc
      .subarray(['=', '==', ' ', '.', '\t'], { minLength: 1 })
      .map((suffixes) => `${respellings(text)['changed unused bits'] ?? text}${suffixes.join('')}`),
  );
}
