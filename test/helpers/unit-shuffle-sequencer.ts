import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The run's file order: every project as vitest orders it (by project, then longest first), but the
 * unit project's files in a random order fixed by the run's seed. With `--project unit
 * --sequence.shuffle --sequence.seed=<seed>` the unit files come in exactly the order the main run
 * gave them under that seed, so a red run is replayed by naming its seed (README, Test).
 *
 * vitest shuffles files for a whole run or not at all (`sequence.shuffle.files` is a root option):
 * shuffling every project would start long integration and browser files late. Tests inside the unit
 * files are shuffled by the unit project's own `sequence.shuffle` (vitest.config.ts).
 */
export class UnitShuffleSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const isUnit = (spec: TestSpecification) => spec.project.name === 'unit';
    // As vitest's RandomSequencer does: first by name (the glob's order can vary), then the seed decides.
    const unit = shuffle(
      sorted.filter(isUnit).sort((a, b) => compare(a.moduleId, b.moduleId)),
      this.ctx.config.sequence.seed,
    );
    return sorted.map((spec) => (isUnit(spec) ? (unit.shift() ?? spec) : spec));
  }
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
