import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { ValidationError } from '#shared/errors.ts';
import type { ApiEvent } from '#shared/http/api-event.ts';
import { validateBody } from '#shared/http/validate.ts';
import { apiEvent, lambdaContext } from '#test/helpers/api.ts';

/** Runs the validation middleware alone on a parsed body; resolves with the valid body or rejects. */
async function validate(middleware: ReturnType<typeof validateBody>, jsonBody: Record<string, unknown>) {
  const event: ApiEvent = { ...apiEvent(), jsonBody };
  await middleware.before?.({
    event,
    context: lambdaContext(),
    response: undefined,
    error: undefined,
    internal: {},
  });
  return event.validBody;
}

describe('fn: validateBody', () => {
  it('builds a schema given as a function on the first request it validates, and only once', async () => {
    const build = vi.fn(() => z.object({ n: z.number() }));
    const middleware = validateBody(build);
    expect(build).not.toHaveBeenCalled();

    await expect(validate(middleware, { n: 1 })).resolves.toEqual({ n: 1 });
    await expect(validate(middleware, { n: 'one' })).rejects.toThrow(ValidationError);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('validates with a schema given as it is', async () => {
    const middleware = validateBody(z.object({ n: z.number() }));
    await expect(validate(middleware, { n: 2 })).resolves.toEqual({ n: 2 });
    await expect(validate(middleware, {})).rejects.toThrow(ValidationError);
  });
});
