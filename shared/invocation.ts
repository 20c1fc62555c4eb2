import { randomUUID } from 'node:crypto';
import { currentTraceId } from './config.ts';
import { type LogFields, requestFields } from './log.ts';

/** True until this process has begun its first invocation: the one that paid the cold start. */
let coldStart = true;

/** What the logs take from the context Lambda hands each invocation. */
interface InvocationContext {
  readonly awsRequestId?: string;
}

/**
 * Begins an invocation and answers the fields every line it writes carries, as Powertools' logger
 * adds them: `ids` (its request ids), `cold_start` (true on the process's first invocation only, of
 * whichever kind) and the X-Ray `trace_id`.
 */
export function invocationFields(ids: LogFields): LogFields {
  const fields = { ...ids, cold_start: coldStart, trace_id: currentTraceId() };
  coldStart = false;
  return fields;
}

/**
 * A function without the HTTP stack (the event functions, the sweep): every line an invocation of
 * `handler` writes carries Lambda's request id as `request_id` and `cold_start`, as the HTTP functions'
 * lines do (http/envelope.ts). Without a Lambda context (the dev server) the request id is made up.
 */
export function withInvocationFields<R, E = void>(
  handler: (event: E) => Promise<R>,
): (event: E, context?: InvocationContext) => Promise<R> {
  return (event, context) =>
    requestFields.run(invocationFields({ request_id: context?.awsRequestId ?? randomUUID() }), () =>
      handler(event),
    );
}
