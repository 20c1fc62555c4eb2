import {
  CloudWatchDimensionSource,
  ConfigurationSet,
  ConfigurationSetTlsPolicy,
  EmailSendingEvent,
  EventDestination,
  SuppressionReasons,
} from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** The dimension the configuration set's events carry in CloudWatch (namespace AWS/SES). */
export const EMAIL_EVENT_DIMENSION = 'Stage';

/** The dimension value of the traveller notices' events; the sign-in e-mails' is the stage itself. */
export const noticeEmailDimension = (stage: string) => `${stage}-notices`;

/**
 * An SES configuration set the stage names (sign-in's or the traveller notices'), created here so that
 * it exists (SendEmail fails on a set that does not, and every code would answer 503) and belongs to
 * the stage. It requires TLS to the recipient's mail server (a message carries a sign-in code or a
 * traveller's booking), keeps bounced and complained-about addresses on the suppression list, and
 * publishes every delivery event to CloudWatch under `Stage=<dimension>` (sign-in: the stage; notices:
 * `<stage>-notices`): the bounce and complaint alarms read them, each set's apart.
 */
export class StageEmail extends Construct {
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string, props: { readonly name: string; readonly dimension: string }) {
    super(scope, id);
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: props.name,
      tlsPolicy: ConfigurationSetTlsPolicy.REQUIRE,
      reputationMetrics: true,
      suppressionReasons: SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });
    this.configurationSet.addEventDestination('CloudWatch', {
      destination: EventDestination.cloudWatchDimensions([
        // No message carries this tag, so every event gets the default: the stage.
        {
          name: EMAIL_EVENT_DIMENSION,
          source: CloudWatchDimensionSource.MESSAGE_TAG,
          defaultValue: props.dimension,
        },
      ]),
      events: [
        EmailSendingEvent.SEND,
        EmailSendingEvent.DELIVERY,
        EmailSendingEvent.BOUNCE,
        EmailSendingEvent.COMPLAINT,
        EmailSendingEvent.REJECT,
        EmailSendingEvent.RENDERING_FAILURE,
        EmailSendingEvent.DELIVERY_DELAY,
      ],
    });
  }
}
