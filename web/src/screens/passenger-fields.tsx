import type { JSX } from 'preact';
import { birthDateProblem } from '../ages.ts';
import type { Schemas } from '../api.ts';
import { FieldError, ISO_DATE_INPUT } from '../components.tsx';
import { normalisePhone } from '../phone.ts';
import { todayHere } from '../time.ts';

/** The Book screen's form: one block per searched passenger, then the contact (docs/console.md, Book). */
type PaxType = Schemas['Passenger']['pax_type'];
export interface PassengerDraft {
  title: string;
  first_name: string;
  last_name: string;
  gender: string;
  born_on: string;
}
export interface BookDraft {
  passengers: PassengerDraft[];
  email: string;
  phone: string;
}

export const emptyPassenger = (): PassengerDraft => ({
  title: '',
  first_name: '',
  last_name: '',
  gender: '',
  born_on: '',
});
const PAX_NAMES: Record<PaxType, string> = {
  ADULT: 'adult',
  CHILD: 'child (2–11)',
  INFANT: 'infant (under 2)',
};
const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * What the page can tell before sending, by request path: fields left empty, a birth date that is
 * not `YYYY-MM-DD` or does not fit the passenger's type on `firstDeparture` (ages.ts), a contact
 * that cannot be right. The service checks it all again.
 */
export function draftProblems(
  passengers: PassengerDraft[],
  types: PaxType[],
  contact: { email: string; phone: string },
  firstDeparture: string,
): Map<string, string> {
  const problems = new Map<string, string>();
  const today = todayHere();
  passengers.forEach((passenger, index) => {
    const at = (name: keyof PassengerDraft, text: string | undefined) => {
      if (text) problems.set(`passengers.${index}.${name}`, text);
    };
    at('title', passenger.title ? undefined : 'Choose a title.');
    at('first_name', passenger.first_name.trim() ? undefined : 'Enter the first name.');
    at('last_name', passenger.last_name.trim() ? undefined : 'Enter the last name.');
    at('gender', passenger.gender ? undefined : 'Choose a gender.');
    at('born_on', birthDateProblem(types[index] ?? 'ADULT', passenger.born_on.trim(), firstDeparture, today));
  });
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact.email.trim()))
    problems.set('contact.email', 'Enter an e-mail address, e.g. name@example.com.');
  if (!E164.test(normalisePhone(contact.phone)))
    problems.set('contact.phone', 'Enter the phone number with its country code, e.g. +44 7700 900123.');
  return problems;
}

const TITLES = [
  ['mr', 'Mr'],
  ['mrs', 'Mrs'],
  ['ms', 'Ms'],
  ['miss', 'Miss'],
  ['dr', 'Dr'],
] as const;
const GENDERS = [
  ['f', 'Female'],
  ['m', 'Male'],
  ['x', 'Unspecified'],
] as const;

/** A select's options: none chosen first, then `choices` as value and label. */
function Options({ choices }: { choices: readonly (readonly [string, string])[] }) {
  return (
    <>
      <option value="">Choose…</option>
      {choices.map(([value, label]) => (
        <option key={value} value={value}>
          {label}
        </option>
      ))}
    </>
  );
}

/** One passenger's fields, each with its error (the page's own check, or the service's). */
export function PassengerFields(props: {
  index: number;
  type: PaxType;
  passenger: PassengerDraft;
  errors: Map<string, string>;
  onChange: (passenger: PassengerDraft) => void;
}) {
  const { index, type, passenger, errors, onChange } = props;
  const pathOf = (name: keyof PassengerDraft) => `passengers.${index}.${name}`;
  const field = (name: keyof PassengerDraft, label: string, input: (id: string) => JSX.Element) => {
    const id = pathOf(name).replaceAll('.', '-');
    return (
      <div>
        <label for={id}>{label}</label>
        {input(id)}
        <FieldError id={`${id}-error`} text={errors.get(pathOf(name))} />
      </div>
    );
  };
  const attrs = (name: keyof PassengerDraft) => {
    const id = pathOf(name).replaceAll('.', '-');
    return {
      id,
      value: passenger[name] ?? '',
      'aria-invalid': errors.has(pathOf(name)) ? ('true' as const) : undefined,
      'aria-describedby': `${id}-error`,
      onInput: (event: { currentTarget: { value: string } }) =>
        onChange({ ...passenger, [name]: event.currentTarget.value }),
    };
  };
  return (
    <fieldset>
      <legend>
        Passenger {index + 1} · {PAX_NAMES[type]}
      </legend>
      <div class="row">
        {field('title', 'Title', (id) => (
          <select {...attrs('title')} id={id}>
            <Options choices={TITLES} />
          </select>
        ))}
        {field('first_name', 'First name', (id) => (
          <input {...attrs('first_name')} id={id} autoComplete="off" maxLength={35} />
        ))}
        {field('last_name', 'Last name', (id) => (
          <input {...attrs('last_name')} id={id} autoComplete="off" maxLength={35} />
        ))}
        {field('gender', 'Gender', (id) => (
          <select {...attrs('gender')} id={id}>
            <Options choices={GENDERS} />
          </select>
        ))}
        {field('born_on', 'Date of birth (YYYY-MM-DD)', (id) => (
          <input {...attrs('born_on')} id={id} {...ISO_DATE_INPUT} />
        ))}
      </div>
    </fieldset>
  );
}

/** The booking's contact: e-mail and phone (spaces, dots, dashes and brackets are fine in a phone). */
export function ContactFields(props: {
  draft: BookDraft;
  errors: Map<string, string>;
  onChange: (draft: BookDraft) => void;
}) {
  const { draft, errors, onChange } = props;
  return (
    <fieldset>
      <legend>Contact</legend>
      <div class="row">
        {(
          [
            ['email', 'Contact e-mail', 'email', ''],
            ['phone', 'Contact phone', 'tel', '+44 7700 900123'],
          ] as const
        ).map(([name, label, mode, placeholder]) => (
          <div key={name}>
            <label for={`contact-${name}`}>{label}</label>
            <input
              id={`contact-${name}`}
              inputMode={mode}
              autoComplete="off"
              placeholder={placeholder}
              value={draft[name]}
              onInput={(event) => onChange({ ...draft, [name]: event.currentTarget.value })}
              aria-invalid={errors.has(`contact.${name}`) ? 'true' : undefined}
              aria-describedby={`contact-${name}-error`}
            />
            <FieldError id={`contact-${name}-error`} text={errors.get(`contact.${name}`)} />
          </div>
        ))}
      </div>
    </fieldset>
  );
}
