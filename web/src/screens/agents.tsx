import type { ComponentChildren, Ref } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { client, type Failure, fieldErrors, type Schemas, settle } from '../api.ts';
import { ConfirmDialog, ErrorNotice, Progress } from '../components.tsx';
import { identifierOf } from '../phone.ts';
import type { Agent } from '../session.ts';
import { useCall } from '../use-call.ts';
import './manage.css';

type AgencyAgent = Schemas['AgencyAgentsListResponse']['data'][number];
type Role = AgencyAgent['role'];

const ROLES: { value: Role; label: string }[] = [
  { value: 'AGENT', label: 'Agent: search, book, manage bookings' },
  { value: 'ADMIN', label: 'Admin: also agents and webhooks' },
];

/** Every refusal of the agency routes (docs/API.md §3.4), said plainly. */
const PLAIN: Record<string, string> = {
  IDENTIFIER_TAKEN:
    'That e-mail or phone already signs in an agent (of this agency or another). Use another, or ask the operator to release it.',
  LAST_ADMIN:
    'This is the agency’s last active admin. Make another agent an admin first, so someone can still run the agency.',
  LIMIT_REACHED:
    'The agency has as many agents as it may have. Deactivated agents count too; ask the operator to raise the limit.',
  FORBIDDEN: 'Only an admin of the agency can change its agents. Your role may have changed: sign in again.',
  NOT_FOUND: 'That agent is not in your agency any more. The list is shown as it is now.',
};

/**
 * The agency's agents, ADMIN only (docs/console.md, Agents): list (more pages on demand), add, rename,
 * change role, deactivate and re-activate, each refusal said plainly next to what was tried.
 */
export function AgentsScreen({ agent: me }: { agent: Agent }) {
  const [agents, setAgents] = useState<AgencyAgent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure>();
  const [pending, setPending] = useState(true);
  const [said, setSaid] = useState('');

  const load = async (after?: string) => {
    setPending(true);
    const outcome = await settle(
      client.POST('/api/agency/agents/list', { body: { limit: 50, ...(after && { cursor: after }) } }),
    );
    setPending(false);
    if (!outcome.ok) return setFailure(outcome.failure);
    setFailure(undefined);
    setAgents((shown) => (after ? [...shown, ...outcome.body.data] : outcome.body.data));
    setCursor(outcome.body.meta.next_cursor);
  };
  useEffect(() => void load(), []);

  const replace = (changed: AgencyAgent) =>
    setAgents((shown) => shown.map((a) => (a.id === changed.id ? changed : a)));

  return (
    <main id="main">
      <h1 tabIndex={-1}>Agents</h1>
      <AddAgent onAdded={(added) => setAgents((shown) => [...shown, added])} />
      <ErrorNotice failure={failure}>{failure && PLAIN[failure.code]}</ErrorNotice>
      <p class="notice-live" role="status">
        {said}
      </p>
      {agents.length > 0 && (
        <AgentTable agents={agents} me={me} onChanged={replace} onGone={load} announce={setSaid} />
      )}
      <Progress pending={pending} label="Loading agents…" />
      {cursor && !pending && (
        <button type="button" class="secondary" onClick={() => load(cursor)}>
          More agents
        </button>
      )}
    </main>
  );
}

/** The agents, one row each, the signed-in ADMIN marked. */
function AgentTable(props: {
  agents: AgencyAgent[];
  me: Agent;
  onChanged: (agent: AgencyAgent) => void;
  onGone: () => void;
  announce: (text: string) => void;
}) {
  const { agents, me, onChanged, onGone, announce } = props;
  return (
    <table class="manage">
      <caption class="visually-hidden">The agency's agents</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Signs in with</th>
          <th scope="col">Role</th>
          <th scope="col">Status</th>
          <th scope="col">Changes</th>
        </tr>
      </thead>
      <tbody>
        {agents.map((agent) => (
          <AgentRow
            key={agent.id}
            agent={agent}
            isMe={agent.id === me.id}
            onChanged={onChanged}
            onGone={onGone}
            announce={announce}
          />
        ))}
      </tbody>
    </table>
  );
}

/** The new agent's fields, and adding it: the form empties once it is added. */
function useAddAgent(onAdded: (agent: AgencyAgent) => void) {
  const [name, setName] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [role, setRole] = useState<Role>('AGENT');
  const [added, setAdded] = useState<string>();
  const { pending, failure, run } = useCall();

  const add = async (event: Event) => {
    event.preventDefault();
    setAdded(undefined);
    const outcome = await run(() =>
      settle(
        client.POST('/api/agency/agents/create', {
          body: { name: name.trim(), ...identifierOf(identifier), role },
        }),
      ),
    );
    if (!outcome?.ok) return;
    onAdded(outcome.body.data);
    setAdded(`${outcome.body.data.name} can sign in now with ${outcome.body.data.identifier}.`);
    setName('');
    setIdentifier('');
    setRole('AGENT');
  };
  return { name, setName, identifier, setIdentifier, role, setRole, added, pending, failure, add };
}

/** The role a new agent gets. */
function RoleField({ role, onChange }: { role: Role; onChange: (role: Role) => void }) {
  return (
    <div>
      <label for="agent-role">Role</label>
      <select id="agent-role" value={role} onChange={(e) => onChange(e.currentTarget.value as Role)}>
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Registers an agent: it can sign in at once with the e-mail or phone given. */
function AddAgent({ onAdded }: { onAdded: (agent: AgencyAgent) => void }) {
  const { name, setName, identifier, setIdentifier, role, setRole, added, pending, failure, add } =
    useAddAgent(onAdded);

  const fields = fieldErrors(failure);
  const identifierError = fields.get('identifier') ?? fields.get('type');
  const shown = failure && fields.size === 0 ? failure : undefined;
  return (
    <form class="add" onSubmit={add} noValidate aria-labelledby="add-agent-title">
      <h2 id="add-agent-title">Add an agent</h2>
      <div class="row">
        <div>
          <label for="agent-name">Name</label>
          <input
            id="agent-name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={fields.has('name') ? 'true' : undefined}
            aria-describedby="agent-name-error"
          />
          <p id="agent-name-error" class="field-error">
            {fields.get('name') ?? ''}
          </p>
        </div>
        <div>
          <label for="agent-identifier">E-mail or phone</label>
          <input
            id="agent-identifier"
            value={identifier}
            autoComplete="off"
            onInput={(e) => setIdentifier(e.currentTarget.value)}
            aria-invalid={identifierError ? 'true' : undefined}
            aria-describedby="agent-identifier-hint agent-identifier-error"
          />
          <p id="agent-identifier-hint" class="hint">
            A phone number starts with its country code (+44 20 7946 0958; spaces, dots and dashes are fine).
          </p>
          <p id="agent-identifier-error" class="field-error">
            {identifierError ?? ''}
          </p>
        </div>
        <RoleField role={role} onChange={setRole} />
        <button type="submit" disabled={pending || name.trim() === '' || identifier.trim() === ''}>
          Add agent
        </button>
      </div>
      <ErrorNotice failure={shown}>{shown && PLAIN[shown.code]}</ErrorNotice>
      {added && (
        <p class="notice" role="status">
          {added}
        </p>
      )}
    </form>
  );
}

/** What each confirmed change asks first and says once done (docs/console.md, Agents). */
const CHANGES = {
  role: (who: string, role: Role) => ({
    title: `Change ${who}'s role?`,
    text: `${who} becomes ${role === 'ADMIN' ? 'an admin, who can also manage agents and webhooks' : 'an agent, no longer able to manage agents or webhooks'}, from their next request on.`,
    confirm: `Make ${who} ${role === 'ADMIN' ? 'an admin' : 'an agent'}`,
    done: `${who} is now ${role === 'ADMIN' ? 'an admin' : 'an agent'}.`,
  }),
  deactivate: (who: string) => ({
    title: `Deactivate ${who}?`,
    text: `${who} is signed out everywhere at once and can no longer sign in, until re-activated.`,
    confirm: `Deactivate ${who}`,
    done: `${who} is deactivated and signed out everywhere.`,
  }),
};

interface AgentRowProps {
  agent: AgencyAgent;
  isMe: boolean;
  onChanged: (agent: AgencyAgent) => void;
  onGone: () => void;
  announce: (text: string) => void;
}

/** Changes `agent`: the row shows it changed and `announce`s what was done; an agent gone reloads the list. */
function useAgentUpdate(props: Omit<AgentRowProps, 'isMe'>) {
  const { agent, onChanged, onGone, announce } = props;
  const { pending, failure, run } = useCall();
  const update = async (change: { name?: string; role?: Role; active?: boolean }, done?: string) => {
    const outcome = await run(() =>
      settle(client.POST('/api/agency/agents/update', { body: { agent_id: agent.id, ...change } })),
    );
    if (outcome?.ok) {
      onChanged(outcome.body.data);
      if (done) announce(done);
    } else if (outcome?.failure.code === 'NOT_FOUND') onGone();
    return outcome?.ok === true;
  };
  return { pending, failure, update };
}

/**
 * A change the agent confirms first: a role picked in the row's select, or deactivation. Once a role
 * dialog has closed (and given the focus back), the focus goes to the role select.
 */
function useConfirmedChange(
  agent: AgencyAgent,
  update: (change: { role?: Role; active?: boolean }, done?: string) => Promise<boolean>,
) {
  const [role, setRole] = useState<Role>(agent.role);
  const [asking, setAsking] = useState<'role' | 'deactivate'>();
  const roleSelect = useRef<HTMLSelectElement>(null);
  useEffect(() => setRole(agent.role), [agent.role]);
  const question = asking === 'role' ? CHANGES.role(agent.name, role) : CHANGES.deactivate(agent.name);
  const backToRole = useRef(false);
  useEffect(() => {
    if (asking || !backToRole.current) return;
    backToRole.current = false;
    roleSelect.current?.focus();
  }, [asking]);
  const close = () => {
    backToRole.current = asking === 'role';
    setRole(agent.role);
    setAsking(undefined);
  };
  const confirm = async () => {
    const ok = await update(asking === 'role' ? { role } : { active: false }, question.done);
    if (!ok) setRole(agent.role);
    backToRole.current = asking === 'role';
    setAsking(undefined);
  };
  return { role, setRole, asking, setAsking, roleSelect, question, close, confirm };
}

/** The agent's role: a choice in the select, changed by the button (after the dialog). */
function RoleCell(props: {
  agent: AgencyAgent;
  role: Role;
  pending: boolean;
  selectRef: Ref<HTMLSelectElement>;
  onPick: (role: Role) => void;
  onChange: () => void;
}) {
  const { agent, role, pending, selectRef, onPick, onChange } = props;
  const who = agent.name;
  return (
    <td data-label="Role">
      <select
        ref={selectRef}
        aria-label={`${who}: role`}
        value={role}
        disabled={pending}
        onChange={(e) => onPick(e.currentTarget.value as Role)}
      >
        <option value="AGENT">Agent</option>
        <option value="ADMIN">Admin</option>
      </select>{' '}
      {role !== agent.role && (
        <button type="button" aria-label={`Change role of ${who}`} onClick={onChange}>
          Change role
        </button>
      )}
    </td>
  );
}

/**
 * One agent: rename, change role, deactivate or activate; a refusal is said in the row. A role picked
 * in the select is only a choice (arrow keys move through it): Change role, then the dialog, changes
 * it; Deactivate asks first too. What was done is announced (`announce`).
 */
function AgentRow(props: AgentRowProps) {
  const { agent, isMe } = props;
  const [renaming, setRenaming] = useState(false);
  const { pending, failure, update } = useAgentUpdate(props);
  const { role, setRole, asking, setAsking, roleSelect, question, close, confirm } = useConfirmedChange(
    agent,
    update,
  );
  return (
    <tr class={agent.active ? undefined : 'inactive'}>
      <NameCell
        agent={agent}
        isMe={isMe}
        renaming={renaming}
        error={fieldErrors(failure).get('name')}
        pending={pending}
        onSave={async (name) => {
          if (await update({ name })) setRenaming(false);
        }}
        onKeep={() => setRenaming(false)}
      />
      <td data-label="Signs in with">{agent.identifier}</td>
      <RoleCell
        agent={agent}
        role={role}
        pending={pending}
        selectRef={roleSelect}
        onPick={setRole}
        onChange={() => setAsking('role')}
      />
      <td data-label="Status">{agent.active ? 'Active' : 'Deactivated'}</td>
      <ChangesCell
        agent={agent}
        renaming={renaming}
        pending={pending}
        failure={failure}
        onRename={() => setRenaming(true)}
        onDeactivate={() => setAsking('deactivate')}
        onActivate={() => update({ active: true }, `${agent.name} is active again and can sign in.`)}
      >
        {asking && (
          <ConfirmDialog
            title={question.title}
            confirm={question.confirm}
            keep="Keep as it is"
            onConfirm={confirm}
            onClose={close}
          >
            {question.text}
          </ConfirmDialog>
        )}
      </ChangesCell>
    </tr>
  );
}

/**
 * The agent's name (the signed-in ADMIN marked), or while renaming a new name, saved or not. The name
 * typed is kept between renamings.
 */
function NameCell(props: {
  agent: AgencyAgent;
  isMe: boolean;
  renaming: boolean;
  error: string | undefined;
  pending: boolean;
  onSave: (name: string) => void;
  onKeep: () => void;
}) {
  const { agent, isMe, renaming, error, pending, onSave, onKeep } = props;
  const [name, setName] = useState(agent.name);
  const save = (event: Event) => {
    event.preventDefault();
    onSave(name.trim());
  };
  return (
    <th scope="row">
      {renaming ? (
        <form onSubmit={save} class="inline-form">
          <label class="visually-hidden" for={`rename-${agent.id}`}>
            New name for {agent.name}
          </label>
          <input
            id={`rename-${agent.id}`}
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={error ? 'true' : undefined}
          />
          <button type="submit" disabled={pending}>
            Save
          </button>
          <button type="button" class="secondary" onClick={onKeep}>
            Keep the name
          </button>
        </form>
      ) : (
        <>
          {agent.name}
          {isMe && ' (you)'}
        </>
      )}
    </th>
  );
}

/** Rename, deactivate or activate; what was refused, said in the row; `children`: the question asked first. */
function ChangesCell(props: {
  agent: AgencyAgent;
  renaming: boolean;
  pending: boolean;
  failure: Failure | undefined;
  onRename: () => void;
  onDeactivate: () => void;
  onActivate: () => void;
  children: ComponentChildren;
}) {
  const { agent, renaming, pending, failure, onRename, onDeactivate, onActivate, children } = props;
  const nameError = fieldErrors(failure).get('name');
  return (
    <td data-label="Changes">
      {!renaming && (
        <button type="button" class="secondary" aria-label={`Rename ${agent.name}`} onClick={onRename}>
          Rename
        </button>
      )}{' '}
      <ActiveButton agent={agent} pending={pending} onDeactivate={onDeactivate} onActivate={onActivate} />
      {nameError && <p class="field-error">{nameError}</p>}
      <ErrorNotice failure={failure && !nameError ? failure : undefined}>
        {failure && PLAIN[failure.code]}
      </ErrorNotice>
      {children}
    </td>
  );
}

/** Deactivate (asked first) an active agent, or activate a deactivated one. */
function ActiveButton(props: {
  agent: AgencyAgent;
  pending: boolean;
  onDeactivate: () => void;
  onActivate: () => void;
}) {
  const { agent, pending, onDeactivate, onActivate } = props;
  const who = agent.name;
  if (agent.active)
    return (
      <button
        type="button"
        class="danger"
        aria-label={`Deactivate ${who}`}
        disabled={pending}
        onClick={onDeactivate}
      >
        Deactivate
      </button>
    );
  return (
    <button type="button" aria-label={`Activate ${who}`} disabled={pending} onClick={onActivate}>
      Activate
    </button>
  );
}
