import { addBookingNote, noteRequest } from '#shared/bookings/notes.ts';
import { type AppContext, context } from '#shared/context.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { route } from '#shared/routes.ts';

/** The route's handler over `ctx`: the deployed one uses the process context, tests their own. */
export function createHandler(ctx: AppContext) {
  const add = addBookingNote(ctx);
  return httpHandler(
    route('booking-note'),
    noteRequest,
    async ({ body, session }) => ({ status: 201, data: await add(body, session) }),
    ctx,
  );
}

export const handler = createHandler(context);
