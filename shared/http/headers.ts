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

/**
 * Every value of header `name`, matched case-insensitively: API Gateway's `multiValueHeaders` when it
 * has the header (each field the client sent), else the single joined value of `headers`.
 */
export function readHeaderValues(
  event: { headers: HeaderMap; multiValueHeaders?: Record<string, string[] | undefined> | null },
  name: string,
): string[] {
  const wanted = name.toLowerCase();
  const values = Object.entries(event.multiValueHeaders ?? {})
    .filter(([key]) => key.toLowerCase() === wanted)
    .flatMap(([, list]) => list ?? []);
  if (values.length > 0) return values;
  const joined = readHeader(event.headers, name);
  return joined === undefined ? [] : [joined];
}
