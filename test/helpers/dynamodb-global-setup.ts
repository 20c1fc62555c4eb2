import type { TestProject } from 'vitest/node';
import { takeRunStart } from './run-starts.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamodbEndpoints: string[];
  }
}

/** The integration run's DynamoDB Locals, one per test worker (test/helpers/run-starts.ts). */
export default async function setup(project: TestProject) {
  const dynamos = await takeRunStart('dynamodb', project);
  project.provide(
    'dynamodbEndpoints',
    dynamos.value.map((dynamo) => dynamo.endpoint),
  );
  return dynamos.release;
}
