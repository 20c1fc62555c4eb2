import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/** A test that used more than this share of its timeout is named, so headroom is seen before it is gone. */
const HEADROOM_SHARE = 0.5;
const SHOWN = 10;

interface Timed {
  readonly name: string;
  readonly duration: number;
  readonly timeout: number | undefined;
}

/**
 * After a run, prints the ten slowest tests with their timeouts, and every test that needed more
 * than half of its timeout: a suite that needs most of its timeouts will refuse a good change one day
 * on a slower machine. By default it only reports (the timeouts themselves fail a test): failing a
 * run for a test at 51 % would be a timing assertion, red on a slow machine for a good change. With
 * `TEST_HEADROOM=strict` (the loaded check in the README's Test section) a flagged test fails the run.
 */
export default class SlowestTestsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tests: Timed[] = [];
    for (const module of modules)
      for (const test of module.children.allTests()) {
        const diagnostic = test.diagnostic();
        if (diagnostic) tests.push(timed(test, diagnostic.duration));
      }
    if (tests.length === 0) return;
    tests.sort((a, b) => b.duration - a.duration);
    const line = (t: Timed) =>
      `  ${(t.duration / 1000).toFixed(1).padStart(6)} s of ${t.timeout ? `${t.timeout / 1000} s`.padEnd(5) : '  –  '}  ${t.name}`;
    console.log(`\nslowest ${Math.min(SHOWN, tests.length)} tests (duration of timeout):`);
    for (const test of tests.slice(0, SHOWN)) console.log(line(test));
    const tight = tests.filter((t) => t.timeout && t.duration > t.timeout * HEADROOM_SHARE);
    if (tight.length) {
      console.log(`\ntests that needed more than ${HEADROOM_SHARE * 100} % of their timeout:`);
      for (const test of tight) console.log(line(test));
      if (process.env.TEST_HEADROOM === 'strict') {
        console.log('\nTEST_HEADROOM=strict: the run fails for them');
        process.exitCode = 1;
      }
    }
  }
}

function timed(test: TestCase, duration: number): Timed {
  const file = relative(process.cwd(), test.module.moduleId);
  return {
    name: `${file} › ${test.fullName}`,
    duration,
    timeout: test.options.timeout ?? test.project.config.testTimeout,
  };
}
