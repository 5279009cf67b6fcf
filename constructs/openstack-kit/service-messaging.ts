import { k8s } from 'cdk8s-plus-33';
import { shellWord } from '../kube/shell-word';
import { Construct } from 'constructs';
import { Cloud, Service } from '../../lib/model';
import { SchedulingKey } from '../../lib/scheduling';
import { MessagingEndpoint } from './endpoints';
import { GeneratedSecret } from '../kube/generated-secret';
import { JobComponent } from '../kube/job-component';
import { envFromSecret, SecretRef } from '../kube/secret-ref';

/** A shell command substitution: `value` escaped for a double-quoted curl config string. */
const curlConfigQuoted = (value: string) => `$(printf '%s' "${value}" | sed 's/[\\\\"]/\\\\&/g')`;

/**
 * Shell lines of a PUT to the management API (`$API`) as `$ADMIN_USER`. curl reads the
 * credentials and the body from a config on stdin (`-K -`), written by the shell's builtin
 * `printf`: neither the admin's password nor a body with the new user's password is on argv.
 */
function managementApiPut(path: string, body?: string): string[] {
  const config =
    body === undefined ? `'user = "%s"\\n' "$auth"` : `'user = "%s"\\ndata = "%s"\\n' "$auth" "$body"`;
  return [
    ...(body === undefined ? [] : [`body=${curlConfigQuoted(body)}`]),
    `printf ${config} | curl -fsS -K - -H 'content-type: application/json' -X PUT "$API/${path}"`,
  ];
}

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
    this.vhost = shellWord(props.vhost ?? Service.nameFor(scope), 'vhost');
    this.credentials = new GeneratedSecret(this, `${id}-credentials`, {
      operatorKey: props.operatorKey,
      keys: ['password'],
      secretName: `${Service.nameFor(scope)}-${id}`,
    });
    const api = `http://${props.messaging.host}:${props.managementPort ?? 15672}/api`;
    this.init = new JobComponent(this, `${id}-init`, {
      operatorKey: props.operatorKey,
      image: cloud.toolboxImage,
      command: [
        '/bin/sh',
        '-ec',
        [
          `auth=${curlConfigQuoted('$ADMIN_USER:$ADMIN_PASSWORD')}`,
          ...managementApiPut(`vhosts/${this.vhost}`),
          ...managementApiPut(
            `users/${this.vhost}`,
            '{\\"password\\":\\"$USER_PASSWORD\\",\\"tags\\":\\"\\"}',
          ),
          ...managementApiPut(
            `permissions/${this.vhost}/${this.vhost}`,
            '{\\"configure\\":\\".*\\",\\"write\\":\\".*\\",\\"read\\":\\".*\\"}',
          ),
        ].join('\n'),
      ],
      env: { API: api, ADMIN_USER: props.messaging.adminUser },
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
