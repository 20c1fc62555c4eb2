/**
 * The name people say for a zone's clock at an instant (`GMT`, `BST`, `CET`, `EST`, `JST`, `AEDT`),
 * from the IANA zone through the runtime's ICU data: the first of these locales that names it with
 * letters, else the offset (`GMT+3`). Only notices and itineraries ask (never a search): one formatter
 * per locale and zone, made on first use.
 */
const NAME_LOCALES = ['en-US', 'en-GB', 'en-AU', 'en-IN', 'ja-JP', 'en-NZ', 'en-SG', 'en-HK', 'en-ZA'];

const namers = new Map<string, Intl.DateTimeFormat>();

function nameIn(locale: string, timeZone: string, epochMillis: number): string {
  const key = `${locale} ${timeZone}`;
  let namer = namers.get(key);
  if (!namer) {
    namer = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'short' });
    namers.set(key, namer);
  }
  return namer.formatToParts(epochMillis).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** `timeZone`'s short name at `epochMillis`; its offset (`GMT-3`) where no locale names it. */
export function zoneName(timeZone: string, epochMillis: number): string {
  for (const locale of NAME_LOCALES) {
    const name = nameIn(locale, timeZone, epochMillis);
    if (/^[A-Z]{2,5}$/.test(name)) return name;
  }
  return nameIn('en-GB', timeZone, epochMillis);
}
