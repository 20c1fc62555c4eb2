/**
 * `npm install`'s last step (package.json `postinstall`): DynamoDB Local's launcher packed and the
 * class-data archive of its classes made (infra/local/dynamodb-local.ts), so the first `npm start` or
 * `npm test` after an install starts it as fast as later ones do. It never fails the install: without
 * Java, or on any failure, it says so and the first start prepares what is missing, as it always has.
 */
import { prepareDynamoDbLocal } from './dynamodb-local.ts';

try {
  const ready = await prepareDynamoDbLocal();
  console.log(
    ready
      ? 'DynamoDB Local is ready: its launcher and class-data archive are in node_modules/.cache.'
      : 'DynamoDB Local is being prepared by another process; its starts need nothing from this one.',
  );
} catch (error) {
  console.log(
    `DynamoDB Local was not prepared now (${(error as Error).message}); its first start will prepare it.`,
  );
}
