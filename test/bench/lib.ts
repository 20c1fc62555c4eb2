/** Pure helpers of the benchmarks: statistics, rounding, Markdown. No I/O. */

/** One section of BENCHMARKS.md: what each benchmark returns. */
export interface Section {
  readonly title: string;
  readonly lines: readonly string[];
}

/** Percentile by nearest rank of unsorted samples. */
export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}
export const median = (samples: readonly number[]) => percentile(samples, 50);

export const round = (value: number, digits = 2) => Number(value.toFixed(digits));
export const ratio = (value: number, baseline: number) => round(value / baseline, 2);

/** A Markdown table. */
export function table(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const line = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

export const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

/** A fixed-seed shuffle, so each round runs the bundles in another order and drift is spread evenly. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}
