import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  App,
  type AppProps,
  CloudFormationValidatePlugin,
  type IPolicyValidationContext,
  type IPolicyValidationPlugin,
  type PolicyValidationPluginReport,
  Validations,
} from 'aws-cdk-lib';

/**
 * An App for a test's in-process synth. CDK checks every synthesised template against CloudFormation's
 * rules (its built-in validation; cdk.json's `@aws-cdk/core:validateAgainstDefaultRules` makes a
 * finding fail the synth), and here each distinct template is checked once per test run instead of at
 * every synth: the infra tests synthesise 35 templates, 20 of them different, and the check took about
 * half a second of CPU each (21 s of the infra project's 61 s). What is checked, and what fails, is the
 * same: the built-in plugin, given the templates no synth of this run has passed yet. `cdk synth` (the
 * bundled synth of synth.test.ts, and every deploy) runs the built-in check itself.
 */
export function testApp(props: AppProps = {}): App {
  const app = new App({ ...props, builtinCloudFormationValidation: false });
  Validations.of(app).addPlugins(new RulesOncePerRun());
  return app;
}

/** One per worker process: it keeps its rules engine between synths, as the built-in singleton does. */
const rules = new CloudFormationValidatePlugin();

/** The templates that passed the rules in this run, one empty file each, named by their content's hash. */
const passedDir = join(process.env.FLIGHT_BOOKING_TEST_TMP ?? tmpdir(), 'cloudformation-rules-passed');

class RulesOncePerRun implements IPolicyValidationPlugin {
  readonly name = rules.name;

  validate(context: IPolicyValidationContext): PolicyValidationPluginReport {
    const hashes = new Map(
      context.stackTemplates.map((stack) => [
        stack.templatePath,
        createHash('sha256').update(readFileSync(stack.templatePath)).digest('hex'),
      ]),
    );
    const unchecked = context.stackTemplates.filter(
      (stack) => !existsSync(join(passedDir, hashes.get(stack.templatePath) ?? '')),
    );
    if (unchecked.length === 0) return { success: true, violations: [] };
    const report = rules.validate({
      ...context,
      stackTemplates: unchecked,
      templatePaths: unchecked.map((stack) => stack.templatePath),
    });
    // A template that failed is checked again at its next synth, and fails it again.
    if (report.success) {
      mkdirSync(passedDir, { recursive: true });
      for (const stack of unchecked) writeFileSync(join(passedDir, hashes.get(stack.templatePath) ?? ''), '');
    }
    return report;
  }
}
