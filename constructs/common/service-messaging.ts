import { k8s } from 'cdk8s-plus-33';
import { shellWord } from './shell-word';
import { Construct } from 'constructs';
import { Cloud } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { MessagingEndpoint } from './endpoints';
import { GeneratedSecret } from './generated-secret';
import { JobComponent } from './job-component';
import { envFromSecret, SecretRef } from './secret-ref';

export interface ServiceMessagingProps {
  readonly messaging: MessagingEndpoint;
  readonly operatorKey: SchedulingKey;
  /** @default the service name */
  readonly vhost?: string;
  /** Management API port of the server. @default 15672 */
  readonly managementPort?: number;
}

/**
 * A service's own vhost and user on RabbitMQ: generated password (`<svc>-mq-credentials`) and a
 * Job (`<svc>-mq-init`) that creates both through the management API. Pods get the transport URL
 * from {@link transportUrlEnv}, composed from the Secret at pod start.
 */
export class ServiceMessaging extends Construct {
  readonly credentials: GeneratedSecret;
  readonly init: JobComponent;
  readonly vhost: string;
  /** The server the vhost is on. */
  readonly endpoint: MessagingEndpoint;

  constructor(scope: Construct, id: string, props: ServiceMessagingProps) {
    super(scope, id);
    const cloud = Cloud.of(this);
    this.endpoint = props.messaging;
    this.vhost = shellWord(props.vhost ?? scope.node.id, 'vhost');
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
      secretName: `${scope.node.id}-${id}`,
    });
    const api = `http://${shellWord(props.messaging.host, 'messaging.host')}:${shellWord(props.managementPort ?? 15672, 'managementPort')}/api`;
    const curl = `curl -fsS -u "${shellWord(props.messaging.adminUser, 'messaging.adminUser')}:$ADMIN_PASSWORD" -H 'content-type: application/json' -X PUT`;
    this.init = new JobComponent(this, `${id}-init`, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      command: [
        '/bin/sh',
        '-ec',
        [
          `${curl} ${api}/vhosts/${this.vhost}`,
          `${curl} ${api}/users/${this.vhost} -d "{\\"password\\":\\"$USER_PASSWORD\\",\\"tags\\":\\"\\"}"`,
          `${curl} ${api}/permissions/${this.vhost}/${this.vhost} -d '{"configure":".*","write":".*","read":".*"}'`,
        ].join('\n'),
      ],
      secretEnv: { ADMIN_PASSWORD: props.messaging.adminPassword, USER_PASSWORD: this.password },
    });
    this.init.dependsOn(props.messaging, 'ready').dependsOn(this.credentials, 'completed');
  }

  get password(): SecretRef {
    return this.credentials.ref('password');
  }

  /** `[DEFAULT] transport_url` for oslo.config without a literal password. */
  transportUrlEnv(passwordVariable = 'MQ_PASSWORD'): k8s.EnvVar[] {
    return [
      envFromSecret(passwordVariable, this.password),
      { name: 'OS_DEFAULT__TRANSPORT_URL', value: this.transportUrl(passwordVariable) },
    ];
  }

  /**
   * The transport URL with the password as `$(<passwordVariable>)`, for pods that need several
   * (Nova's cell mapping records every cell's URL); define the password variable before the URL.
   */
  transportUrl(passwordVariable = 'MQ_PASSWORD'): string {
    return `rabbit://${this.vhost}:$(${passwordVariable})@${this.endpoint.host}:${this.endpoint.port}/${this.vhost}`;
  }
}
