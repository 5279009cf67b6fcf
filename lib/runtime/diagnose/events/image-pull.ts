import { ClusterEvent } from './cluster-event';
import { EventRule, eventRule, EventWording } from './event-rule';

const IMAGE = /image "([^"]+)"/;
const PULL_FAILURE =
  /Failed to pull image|Back-off pulling image|ErrImagePull|ImagePullBackOff|InvalidImageName|Failed to apply default image tag|is not present with pull policy of Never/;

/**
 * The kubelet cannot pull a container image (`Failed`, `BackOff`, `InspectFailed`,
 * `ErrImageNeverPull`): names the image; blocking, since retrying the same reference rarely helps.
 */
export const imagePull: EventRule = eventRule({
  cause: 'image-pull',
  reasons: ['Failed', 'BackOff', 'InspectFailed', 'ErrImageNeverPull'],
  blocking: true,
  word(event: ClusterEvent): EventWording | undefined {
    if (!PULL_FAILURE.test(event.message)) return undefined;
    const image = IMAGE.exec(event.message)?.[1];
    return (
      `pod ${event.involved.name} cannot pull image ${image ?? '(see the event)'}: ${event.message}; ` +
      `fix: check the image name and tag, the registry's reachability and the pull secret`
    );
  },
});
