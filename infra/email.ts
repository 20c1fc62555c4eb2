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

/**
 * The SES configuration set the stage names, created here so that it exists (SendEmail fails on a set
 * that does not, and every code would answer 503) and belongs to the stage. It requires TLS to the
 * recipient's mail server (the message carries a sign-in code), keeps bounced and complained-about
 * addresses on the suppression list, and publishes every delivery event to CloudWatch under
 * `Stage=<stage>`: the bounce and complaint alarms read them.
 */
export class SignInEmail extends Construct {
  readonly configurationSet: ConfigurationSet;

  constructor(scope: Construct, id: string, props: { readonly name: string; readonly stage: string }) {
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
          defaultValue: props.stage,
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
