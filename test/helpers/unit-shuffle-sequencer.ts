import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { FIRST_RUN_SECONDS } from './first-run-durations.ts';

/**
 * The run's file order: every project as vitest orders it (by project, then longest first), but the
 * unit project's files in a random order fixed by the run's seed. With `--project unit
 * --sequence.shuffle --sequence.seed=<seed>` the unit files come in exactly the order the main run
 * gave them under that seed, so a red run is replayed by naming its seed (README, Test). Files vitest
 * has no duration for (a clone's first run) start by the durations in first-run-durations.ts,
 * longest first, rather than by size.
 *
 * vitest shuffles files for a whole run or not at all (`sequence.shuffle.files` is a root option):
 * shuffling every project would start long integration and browser files late. Tests inside the unit
 * files are shuffled by the unit project's own `sequence.shuffle` (vitest.config.ts).
 */
export class UnitShuffleSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = withFirstRunOrder(
      await super.sort(files),
      (spec) => this.ctx.cache.getTestSpecificationResult(spec),
      (spec) => FIRST_RUN_SECONDS[relative(this.ctx.config.root, spec.moduleId)] ?? 0,
    );
    const isUnit = (spec: TestSpecification) => spec.project.name === 'unit';
    // As vitest's RandomSequencer does: first by name (the glob's order can vary), then the seed decides.
    const unit = shuffle(
      sorted.filter(isUnit).sort((a, b) => compare(a.moduleId, b.moduleId)),
      this.ctx.config.sequence.seed,
    );
    return sorted.map((spec) => (isUnit(spec) ? (unit.shift() ?? spec) : spec));
  }
}

/**
 * `sorted` with each run of files that vitest has no record for (one project's, side by side in its
 * order) reordered by their first-run durations, longest first; files without one keep their place
 * after those with one, in vitest's order (by size). Files with a record keep vitest's order.
 */
function withFirstRunOrder(
  sorted: TestSpecification[],
  recorded: (spec: TestSpecification) => unknown,
  seconds: (spec: TestSpecification) => number,
): TestSpecification[] {
  const result: TestSpecification[] = [];
  let run: TestSpecification[] = [];
  const flush = () => {
    // Array.prototype.sort is stable: equal durations keep vitest's order.
    result.push(...run.sort((a, b) => seconds(b) - seconds(a)));
    run = [];
  };
  for (const spec of sorted) {
    if (run.length > 0 && (recorded(spec) || run[0]?.project.name !== spec.project.name)) flush();
    if (recorded(spec)) result.push(spec);
    else run.push(spec);
  }
  flush();
  return result;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** vitest's own seeded shuffle (@vitest/runner's `shuffle`), so an order can be compared with its runs. */
function shuffle<T>(array: T[], seed: number): T[] {
  let next = seed;
  const random = () => {
    const x = Math.sin(next) * 1e4;
    return x - Math.floor(x);
  };
  for (let length = array.length; length; next++) {
    const index = Math.floor(random() * length--);
    [array[length], array[index]] = [array[index] as T, array[length] as T];
  }
  return array;
}
