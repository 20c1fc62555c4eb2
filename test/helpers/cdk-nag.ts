import type { App } from 'aws-cdk-lib';

/** What cdk-nag's packs (added to `app` as validation plugins) report on synth; '' when nothing. */
export function nagFindings(app: App): string {
  try {
    app.synth({ force: true });
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
