/**
 * Readers of environment variables, by hand rather than zod: shared/config.ts reads the settings every
 * function reads at init with them, because building zod schemas and compiling zod's code for them
 * cost each cold start about 20 M instructions (BENCHMARKS.md, P1b). A reader takes a variable's raw
 * value and returns it read, or throws a {@link Problem}.
 */
export type Reader<T> = (raw: string | undefined) => T;

export class Problem extends Error {}

export const present = (raw: string | undefined): string => {
  if (raw === undefined) throw new Problem('is required');
  if (raw === '') throw new Problem('must not be empty');
  return raw;
};
export const optional =
  <T>(read: Reader<T>): Reader<T | undefined> =>
  (raw) =>
    raw === undefined ? undefined : read(raw);
export const withDefault =
  <T>(read: Reader<T>, fallback: T): Reader<T> =>
  (raw) =>
    raw === undefined ? fallback : read(raw);
export const url: Reader<string> = (raw) => {
  if (!URL.canParse(present(raw))) throw new Problem('must be a URL');
  return present(raw);
};
export const oneOf =
  <const T extends string>(values: readonly T[]): Reader<T> =>
  (raw) => {
    const found = values.find((value) => value === raw);
    if (found === undefined) throw new Problem(`must be one of ${values.join(', ')}`);
    return found;
  };
/** A number from `min` to `max` (an integer when `integer`), written as JavaScript reads one. */
export const numberIn =
  (min: number, max: number, integer: boolean): Reader<number> =>
  (raw) => {
    const value = present(raw).trim() === '' ? Number.NaN : Number(raw);
    if (!Number.isFinite(value) || (integer && !Number.isInteger(value)) || value < min || value > max)
      throw new Problem(`must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max}`);
    return value;
  };
export const commaList = (raw: string) =>
  raw
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
export type Settings<T> = { readonly [K in keyof T]: Reader<T[K]> };

/** Thrown when the environment is incomplete; its message lists every problem. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Reads every variable `settings` names from `env`, or throws a {@link ConfigError} naming each bad
 * one (`NAME: problem`); when none is, `rules` check the whole (each returns a variable and its
 * problem, or nothing). A variable read as undefined is left out.
 */
export function readSettings<T>(
  settings: Settings<T>,
  env: NodeJS.ProcessEnv,
  rules: readonly ((read: T) => readonly [keyof T, string] | undefined)[] = [],
): T {
  const read: Partial<T> = {};
  const problems: string[] = [];
  for (const name of Object.keys(settings) as (keyof T & string)[]) {
    try {
      const value = settings[name](env[name]);
      if (value !== undefined) read[name] = value;
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      problems.push(`${name}: ${error.message}`);
    }
  }
  if (problems.length === 0)
    for (const rule of rules) {
      const broken = rule(read as T);
      if (broken) problems.push(`${String(broken[0])}: ${broken[1]}`);
    }
  if (problems.length > 0) throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  return read as T;
}
