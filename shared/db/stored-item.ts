import type * as z from 'zod/mini';

/**
 * An item read from the table that is not what its module writes: a fault (answered 500), never a
 * client error. The message names the item kind and the fields, never their values or the key.
 */
export class MalformedItemError extends Error {
  override name = 'MalformedItemError';
}

/**
 * An item schema built on its first read instead of at import. A function imports every item module
 * its writes need, and building a zod schema costs its cold start even when no path of the function
 * reads that item (booking create reads none of the booking, hold, PNR or pending items it writes):
 * about 9 M instructions of booking create's cold start, 1.2 % (BENCHMARKS.md, P1).
 *
 * @example const PnrItem = itemSchema(() => z.object({ booking_id: z.string() }));
 */
export function itemSchema<S extends z.ZodMiniType>(build: () => S): () => S {
  let built: S | undefined;
  return () => {
    built ??= build();
    return built;
  };
}

/**
 * Parses an item as read from the table with its module's schema: what a read answers is checked, not
 * cast. Legacy shapes are each schema's business (optional fields, defaults).
 *
 * @example parseItem('agent profile', AgentItem, Item)
 */
export function parseItem<S extends z.ZodMiniType>(kind: string, schema: S, item: unknown): z.output<S> {
  // Without zod's JIT: an item is read once or a few times per request, and compiling a parser for
  // each schema on its first use would cost a cold start about 1 ms of a booking's 0.4 ms parse.
  const parsed = schema.safeParse(item, { jitless: true });
  if (parsed.success) return parsed.data;
  const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(item)'))];
  throw new MalformedItemError(`malformed ${kind} item: ${fields.join(', ')}`);
}

/**
 * A stored map's attributes, to be checked one by one by a hand-written reader; undefined when
 * `value` is not a map.
 */
export function attributesOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { ...value } : undefined;
}
