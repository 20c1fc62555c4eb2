import { useEffect, useRef, useState } from 'preact/hooks';
import { client, type Failure, fieldErrors, type Schemas, settle } from '../api.ts';
import { ConfirmDialog, ErrorNotice, Progress } from '../components.tsx';
import { yourTime } from '../time.ts';
import { useCall } from '../use-call.ts';
import './manage.css';

type Endpoint = Schemas['AgencyWebhooksListResponse']['data'][number];
type EventType = Endpoint['events'][number];
type Delivery = NonNullable<Endpoint['last_delivery']>;

const EVENTS: EventType[] = [
  'booking.confirmed',
  'booking.held',
  'booking.cancelled',
  'booking.expired',
  'booking.failed',
  'booking.changed',
];

/** How often the list is asked again while a ping's delivery is awaited, and for how long at most. */
const PING_POLL_MS = 1500;
const PING_WAIT_MS = 60_000;

/**
 * Every refusal of the webhook routes (docs/API.md §4.6), said plainly. `RATE_LIMITED` shows the
 * service's own message: it names which limit was reached (the endpoint's 10 or the agency's 20 an hour).
 */
const PLAIN: Record<string, string> = {
  LIMIT_REACHED: 'The agency has 5 endpoints, the most it may have. Delete one before adding another.',
  FORBIDDEN:
    'Only an admin of the agency can manage its webhooks. Your role may have changed: sign in again.',
  NOT_FOUND: 'That endpoint is gone (deleted meanwhile). The list is shown as it is now.',
};

/**
 * The agency's webhook endpoints, ADMIN only (docs/console.md, Webhooks): list with each endpoint's last
 * delivery, add (the signing secret shown once, with a copy button), ping (its delivery's outcome
 * shown when it arrives), delete.
 */
export function WebhooksScreen() {
  const [endpoints, setEndpoints] = useState<Endpoint[]>([]);
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(true);
  const [said, setSaid] = useState('');

  const load = async (): Promise<Endpoint[] | undefined> => {
    const outcome = await settle(client.POST('/api/agency/webhooks/list', { body: {} }));
    setPending(false);
    if (!outcome.ok) {
      setFailure(outcome.failure);
      return undefined;
    }
    setFailure(undefined);
    setEndpoints(outcome.body.data);
    return outcome.body.data;
  };
  useEffect(() => void load(), []);

  return (
    <main id="main">
      <h1 tabIndex={-1}>Webhooks</h1>
      <p class="hint">
        Each endpoint receives the agency's booking events as signed POST requests (Standard Webhooks),
        retried for a day until it answers 2xx.
      </p>
      <AddEndpoint onAdded={load} />
      <ErrorNotice failure={failure}>{failure && PLAIN[failure.code]}</ErrorNotice>
      <p class="notice-live" role="status">
        {said}
      </p>
      {!pending && !failure && endpoints.length === 0 && (
        <p class="notice" role="status">
          No endpoints yet.
        </p>
      )}
      <ul class="endpoints">
        {endpoints.map((endpoint) => (
          <li key={endpoint.id}>
            <EndpointCard endpoint={endpoint} reload={load} announce={setSaid} />
          </li>
        ))}
      </ul>
      <Progress pending={pending} label="Loading endpoints…" />
    </main>
  );
}

/** Adds an endpoint; its signing secret is shown here once, never again (and never stored). */
function AddEndpoint({ onAdded }: { onAdded: () => void }) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventType[]>(EVENTS);
  const [secret, setSecret] = useState<{ url: string; secret: string }>();
  const { pending, failure, run } = useCall();

  const add = async (event: Event) => {
    event.preventDefault();
    setSecret(undefined);
    const outcome = await run(() =>
      settle(client.POST('/api/agency/webhooks/create', { body: { url: url.trim(), events } })),
    );
    if (!outcome?.ok) return;
    setSecret({ url: outcome.body.data.url, secret: outcome.body.data.secret });
    setUrl('');
    setEvents(EVENTS);
    onAdded();
  };

  const fields = fieldErrors(failure);
  const urlError = fields.get('url');
  const shown = failure && !urlError ? failure : undefined;
  return (
    <form class="add" onSubmit={add} noValidate aria-labelledby="add-endpoint-title">
      <h2 id="add-endpoint-title">Add an endpoint</h2>
      <label for="webhook-url">URL</label>
      <input
        id="webhook-url"
        type="url"
        inputMode="url"
        class="wide"
        placeholder="https://"
        value={url}
        onInput={(e) => setUrl(e.currentTarget.value)}
        aria-invalid={urlError ? 'true' : undefined}
        aria-describedby="webhook-url-error"
      />
      <p id="webhook-url-error" class="field-error">
        {urlError ? `This URL cannot receive webhooks: ${urlError}` : ''}
      </p>
      <EventsField events={events} onChange={setEvents} />
      <button type="submit" disabled={pending || url.trim() === '' || events.length === 0}>
        Add endpoint
      </button>
      <ErrorNotice failure={shown}>{shown && PLAIN[shown.code]}</ErrorNotice>
      {secret && <SecretNotice secret={secret} onStored={() => setSecret(undefined)} />}
    </form>
  );
}

/** The events an endpoint receives, in the contract's order. */
function EventsField({ events, onChange }: { events: EventType[]; onChange: (events: EventType[]) => void }) {
  const toggle = (type: EventType, on: boolean) =>
    onChange(on ? EVENTS.filter((e) => e === type || events.includes(e)) : events.filter((e) => e !== type));
  return (
    <fieldset>
      <legend>Events</legend>
      {EVENTS.map((type) => (
        <label key={type} class="inline">
          <input
            type="checkbox"
            checked={events.includes(type)}
            onChange={(e) => toggle(type, e.currentTarget.checked)}
          />
          {type}
        </label>
      ))}
    </fieldset>
  );
}

/**
 * A new endpoint's signing secret, shown this once (a new card remounts it: nothing copied yet), with
 * a way to copy it.
 */
function SecretNotice(props: { secret: { url: string; secret: string }; onStored: () => void }) {
  const { secret, onStored } = props;
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret.secret);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <div class="notice secret" role="status">
      <p>Added {secret.url}. Its signing secret, shown only now: store it where the receiver can read it.</p>
      <p>
        <code>{secret.secret}</code>{' '}
        <button type="button" class="secondary" onClick={copy}>
          Copy secret
        </button>{' '}
        <span aria-live="polite">{copied ? 'Copied.' : ''}</span>
      </p>
      <button type="button" class="secondary" onClick={onStored}>
        I have stored it
      </button>
    </div>
  );
}

/**
 * Pings the endpoint; while its event is awaited, the list is asked again until its delivery is
 * recorded (or a minute).
 */
function usePing(
  endpoint: Endpoint,
  reload: () => Promise<Endpoint[] | undefined>,
  run: ReturnType<typeof useCall>['run'],
) {
  const [awaiting, setAwaiting] = useState<string>();
  const [timedOut, setTimedOut] = useState(false);
  const startedAt = useRef(0);
  const last = endpoint.last_delivery;
  const arrived = awaiting !== undefined && last?.event_id === awaiting && last.outcome !== 'retrying';

  useEffect(() => {
    if (awaiting === undefined || arrived) return;
    if (Date.now() - startedAt.current > PING_WAIT_MS) return setTimedOut(true);
    const timer = setTimeout(reload, PING_POLL_MS);
    return () => clearTimeout(timer);
  }, [awaiting, arrived, endpoint]);

  const ping = async () => {
    setTimedOut(false);
    const outcome = await run(() =>
      settle(client.POST('/api/agency/webhooks/ping', { body: { webhook_id: endpoint.id } })),
    );
    if (!outcome?.ok) {
      if (outcome?.failure.code === 'NOT_FOUND') void reload();
      return;
    }
    startedAt.current = Date.now();
    setAwaiting(outcome.body.data.event_id);
    void reload();
  };
  return { awaiting, arrived, timedOut, ping };
}

/** The ping's progress: sent and awaited, arrived or failed, or not settled after a minute. */
function PingStatus(props: {
  awaiting: string | undefined;
  arrived: boolean;
  timedOut: boolean;
  last: Delivery | null;
}) {
  const { awaiting, arrived, timedOut, last } = props;
  return (
    <>
      {awaiting && !arrived && !timedOut && (
        <p role="status" class="hint">
          Ping sent ({awaiting}): waiting for its delivery…
        </p>
      )}
      {awaiting && arrived && last && (
        <p role="status" class={last.outcome === 'failed' ? 'bad' : 'good'}>
          Ping {last.outcome === 'failed' ? 'failed' : 'arrived'}: <DeliveryOutcome delivery={last} />
        </p>
      )}
      {timedOut && !arrived && (
        <p role="status" class="hint">
          The ping's delivery has not settled after a minute; it is being retried. Check the receiver.
        </p>
      )}
    </>
  );
}

/**
 * One endpoint: its URL as text, events, last delivery; Ping shows its outcome once it arrives. Delete
 * asks first, and says when it is done (`announce`).
 */
function EndpointCard({
  endpoint,
  reload,
  announce,
}: {
  endpoint: Endpoint;
  reload: () => Promise<Endpoint[] | undefined>;
  announce: (text: string) => void;
}) {
  const [asking, setAsking] = useState(false);
  const { pending, failure, run } = useCall();
  const { awaiting, arrived, timedOut, ping } = usePing(endpoint, reload, run);
  const last = endpoint.last_delivery;

  const remove = async () => {
    const outcome = await run(() =>
      settle(client.POST('/api/agency/webhooks/delete', { body: { webhook_id: endpoint.id } })),
    );
    setAsking(false);
    // Gone already (NOT_FOUND) is what was asked for: the list says so.
    if (!outcome || !(outcome.ok || outcome.failure.code === 'NOT_FOUND')) return;
    announce(`Deleted ${endpoint.url}: it receives no more events.`);
    // This card leaves the list: the focus goes to the screen's heading rather than nowhere, once the
    // dialog has closed (the page behind a modal dialog takes no focus).
    setTimeout(() => document.querySelector<HTMLElement>('main h1')?.focus(), 0);
    void reload();
  };

  return (
    <article class="endpoint" aria-label={`Endpoint ${endpoint.url}`}>
      <p class="url">
        <code>{endpoint.url}</code>
      </p>
      <p class="meta">
        {endpoint.events.join(', ')} · added {yourTime(endpoint.created_at)}
        {endpoint.active ? '' : ' · inactive'}
      </p>
      <p>
        Last delivery: <DeliveryOutcome delivery={last} />
      </p>
      <PingStatus awaiting={awaiting} arrived={arrived} timedOut={timedOut} last={last} />
      <div class="row">
        <button type="button" aria-label={`Ping ${endpoint.url}`} onClick={ping} disabled={pending}>
          Ping
        </button>
        <button
          type="button"
          class="danger"
          aria-label={`Delete ${endpoint.url}`}
          onClick={() => setAsking(true)}
          disabled={pending}
        >
          Delete
        </button>
      </div>
      <ErrorNotice failure={failure}>{failure && PLAIN[failure.code]}</ErrorNotice>
      {asking && <DeleteDialog url={endpoint.url} onConfirm={remove} onClose={() => setAsking(false)} />}
    </article>
  );
}

/** Deleting an endpoint is final: asked first. */
function DeleteDialog(props: { url: string; onConfirm: () => Promise<unknown>; onClose: () => void }) {
  const { url, onConfirm, onClose } = props;
  return (
    <ConfirmDialog
      title="Delete this endpoint?"
      confirm="Delete endpoint"
      keep="Keep it"
      onConfirm={onConfirm}
      onClose={onClose}
    >
      {url} receives no more events, and cannot be brought back: a new endpoint gets a new secret.
    </ConfirmDialog>
  );
}

function DeliveryOutcome({ delivery }: { delivery: Delivery | null }) {
  if (!delivery) return <>none yet</>;
  const status = delivery.http_status === undefined ? '' : ` (HTTP ${delivery.http_status})`;
  const words = { delivered: 'delivered', failed: 'failed for good', retrying: 'not accepted, retrying' };
  return (
    <>
      {words[delivery.outcome]}
      {status} at <time dateTime={delivery.at}>{yourTime(delivery.at)}</time>
    </>
  );
}
