import type { App } from 'aws-cdk-lib';

/**
 * What cdk-nag's packs (added to `app` as validation plugins) report on synth; '' when nothing. An app
 * already synthesised (a test read its template) passed its plugins then: its assembly is taken as it
 * is, not synthesised and checked a second time. An app whose synth failed has none, and fails again.
 */
export function nagFindings(app: App): string {
  try {
    app.synth();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
