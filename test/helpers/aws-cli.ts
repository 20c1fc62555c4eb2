/**
 * The AWS CLI (v2) commands the README and the runbook give, with their options as the CLI's own
 * reference states them (docs.aws.amazon.com/cli/latest/reference/<service>/<command>.html, the
 * *Synopsis*: options in brackets are optional, the others required). The CLI is not installed where
 * the tests run, so this table stands for its help text: a command the docs add must be added here,
 * from its reference page.
 */
interface Synopsis {
  readonly required?: readonly string[];
  readonly optional?: readonly string[];
}

const SYNOPSES: Record<string, Synopsis> = {
  'acm describe-certificate': { required: ['--certificate-arn'] },
  'acm request-certificate': {
    required: ['--domain-name'],
    optional: ['--validation-method', '--subject-alternative-names', '--key-algorithm', '--tags'],
  },
  'cloudformation continue-update-rollback': {
    required: ['--stack-name'],
    optional: ['--role-arn', '--resources-to-skip', '--client-request-token'],
  },
  'cloudformation delete-stack': {
    required: ['--stack-name'],
    optional: ['--retain-resources', '--role-arn', '--client-request-token', '--deletion-mode'],
  },
  'cloudformation describe-stack-events': { optional: ['--stack-name', '--next-token'] },
  'cloudformation describe-stacks': { optional: ['--stack-name', '--next-token'] },
  'cloudformation list-stack-resources': { required: ['--stack-name'], optional: ['--next-token'] },
  'cloudformation update-termination-protection': {
    required: ['--stack-name'],
    optional: ['--enable-termination-protection', '--no-enable-termination-protection'],
  },
  'cloudwatch describe-alarms': {
    optional: ['--alarm-names', '--alarm-name-prefix', '--alarm-types', '--state-value', '--action-prefix'],
  },
  'cloudwatch set-alarm-state': {
    required: ['--alarm-name', '--state-value', '--state-reason'],
    optional: ['--state-reason-data'],
  },
  'dynamodb update-table': {
    required: ['--table-name'],
    optional: ['--deletion-protection-enabled', '--no-deletion-protection-enabled'],
  },
  'dynamodbstreams get-records': { required: ['--shard-iterator'], optional: ['--limit'] },
  'dynamodbstreams get-shard-iterator': {
    required: ['--stream-arn', '--shard-id', '--shard-iterator-type'],
    optional: ['--sequence-number'],
  },
  'events describe-rule': { required: ['--name'], optional: ['--event-bus-name'] },
  'events enable-rule': { required: ['--name'], optional: ['--event-bus-name'] },
  'lambda get-account-settings': {},
  'lambda list-event-source-mappings': {
    optional: ['--event-source-arn', '--function-name', '--max-items', '--starting-token'],
  },
  'lambda update-event-source-mapping': {
    required: ['--uuid'],
    optional: ['--enabled', '--no-enabled', '--function-name', '--batch-size'],
  },
  'logs create-log-group': {
    required: ['--log-group-name'],
    optional: ['--kms-key-id', '--tags', '--log-group-class'],
  },
  'logs delete-log-group': { required: ['--log-group-name'] },
  'logs describe-log-groups': {
    optional: ['--log-group-name-prefix', '--log-group-name-pattern', '--log-group-class', '--limit'],
  },
  'logs put-retention-policy': { required: ['--log-group-name', '--retention-in-days'] },
  'secretsmanager create-secret': {
    required: ['--name'],
    optional: ['--description', '--kms-key-id', '--secret-string', '--secret-binary', '--tags'],
  },
  'secretsmanager put-secret-value': {
    required: ['--secret-id'],
    optional: ['--client-request-token', '--secret-string', '--secret-binary', '--version-stages'],
  },
  'sesv2 create-email-identity': {
    required: ['--email-identity'],
    optional: ['--tags', '--dkim-signing-attributes', '--configuration-set-name'],
  },
  'sesv2 get-account': {},
  'sesv2 get-configuration-set': { required: ['--configuration-set-name'] },
  'sesv2 get-email-identity': { required: ['--email-identity'] },
  'sesv2 list-suppressed-destinations': {
    optional: ['--reasons', '--start-date', '--end-date', '--next-token', '--page-size'],
  },
  'sesv2 put-account-details': {
    required: ['--mail-type', '--website-url'],
    optional: [
      '--contact-language',
      '--use-case-description',
      '--additional-contact-email-addresses',
      '--production-access-enabled',
      '--no-production-access-enabled',
    ],
  },
  'sesv2 put-account-sending-attributes': { optional: ['--sending-enabled', '--no-sending-enabled'] },
  'sesv2 put-configuration-set-sending-options': {
    required: ['--configuration-set-name'],
    optional: ['--sending-enabled', '--no-sending-enabled'],
  },
  'sns get-sms-attributes': { optional: ['--attributes'] },
  'sns opt-in-phone-number': { required: ['--phone-number'] },
  'sqs delete-message': { required: ['--queue-url', '--receipt-handle'] },
  'sqs get-queue-attributes': { required: ['--queue-url'], optional: ['--attribute-names'] },
  'sqs receive-message': {
    required: ['--queue-url'],
    optional: [
      '--attribute-names',
      '--message-system-attribute-names',
      '--message-attribute-names',
      '--max-number-of-messages',
      '--visibility-timeout',
      '--wait-time-seconds',
    ],
  },
  'sqs send-message': {
    required: ['--queue-url', '--message-body'],
    optional: ['--delay-seconds', '--message-attributes'],
  },
  'sqs start-message-move-task': {
    required: ['--source-arn'],
    optional: ['--destination-arn', '--max-number-of-messages-per-second'],
  },
  'wafv2 delete-logging-configuration': {
    required: ['--resource-arn'],
    optional: ['--log-type', '--log-scope'],
  },
  'wafv2 get-ip-set': { required: ['--name', '--scope', '--id'] },
  'wafv2 get-logging-configuration': {
    required: ['--resource-arn'],
    optional: ['--log-type', '--log-scope'],
  },
  'wafv2 list-ip-sets': { required: ['--scope'], optional: ['--next-marker', '--limit'] },
  'wafv2 put-logging-configuration': { required: ['--logging-configuration'] },
  'wafv2 update-ip-set': {
    required: ['--name', '--scope', '--id', '--addresses', '--lock-token'],
    optional: ['--description'],
  },
};

/** Options every command takes (the reference's *Global Options*). */
const GLOBAL_OPTIONS = ['--query', '--output', '--region', '--profile', '--no-cli-pager', '--debug'];

/** One `aws <service> <command> …` as written: its command and the options it gives. */
export interface AwsCommand {
  readonly command: string;
  readonly options: readonly string[];
  readonly text: string;
}

/** The code of a Markdown text: its fenced blocks and its inline spans, continuation lines joined. */
function codeOf(markdown: string): string[] {
  const fence = /^[ \t]*```[a-z]*\n([\s\S]*?)^[ \t]*```/gm;
  const blocks = [...markdown.matchAll(fence)].map((m) => m[1] ?? '');
  // An inline span may wrap with its paragraph: its line breaks are spaces.
  const spans = [...markdown.replace(fence, '').matchAll(/`([^`]+)`/g)].map((m) =>
    (m[1] ?? '').replace(/\s*\n\s*/g, ' '),
  );
  return [...blocks, ...spans].map((code) => code.replace(/\\\n\s*/g, ' '));
}

/**
 * The words of one shell command from `text`, up to where the command ends: a new line, `|`, `;`,
 * `&&`, a comment, or the `)` closing the `$(…)` it is in. Quotes group; a nested `$(…)` is one word.
 */
function wordsOf(text: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote = '';
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? '';
    if (quote) {
      if (c === quote) quote = '';
      word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word += c;
    } else if (c === '$' && text[i + 1] === '(') {
      depth++;
      word += c;
    } else if (c === ')' && depth > 0) {
      depth--;
      word += c;
    } else if (depth > 0) word += c;
    else if (c === '\n' || c === '|' || c === ';' || c === ')' || text.startsWith('&&', i)) break;
    else if (c === '#' && word === '') break;
    else if (/\s/.test(c)) {
      if (word) words.push(word);
      word = '';
    } else word += c;
  }
  if (word) words.push(word);
  return words;
}

/** Every `aws` command the Markdown text gives, in code blocks and inline code alike. */
export function awsCommands(markdown: string): AwsCommand[] {
  return codeOf(markdown).flatMap((code) =>
    [...code.matchAll(/(?<![\w/.-])aws\s+([a-z0-9-]+)\s+([a-z][a-z0-9-]*)/g)].map((m) => {
      const rest = wordsOf(code.slice((m.index ?? 0) + m[0].length));
      return {
        command: `${m[1]} ${m[2]}`,
        options: rest.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? w),
        text: `${m[0]} ${rest.join(' ')}`,
      };
    }),
  );
}

/** What is wrong with `command` by its synopsis: an unknown command or option, a required one missing. */
export function synopsisProblems({ command, options, text }: AwsCommand): string[] {
  const synopsis = SYNOPSES[command];
  if (!synopsis) return [`${text}: no such command in the table (add it from its reference page)`];
  const known = new Set([...(synopsis.required ?? []), ...(synopsis.optional ?? []), ...GLOBAL_OPTIONS]);
  return [
    ...options.filter((o) => !known.has(o)).map((o) => `${text}: ${command} takes no ${o}`),
    ...(synopsis.required ?? [])
      .filter((o) => !options.includes(o))
      .map((o) => `${text}: ${command} requires ${o}`),
  ];
}
