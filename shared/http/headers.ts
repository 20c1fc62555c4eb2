/** Header maps as API Gateway delivers them: names in any case, values possibly absent. */
export type HeaderMap = Record<string, string | undefined> | null | undefined;

/** The value of header `name`, matched case-insensitively. */
export function readHeader(headers: HeaderMap, name: string): string | undefined {
  if (!headers) return undefined;
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}
