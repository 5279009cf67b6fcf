import { k8s } from 'cdk8s-plus-33';
import { Component } from '../../lib/model';
import { CONFIG_CHECKSUM_ANNOTATION, ConfigDirectory, ConfigFiles, configFiles } from './config-files';

/** What a service's pod is given to mount: its configuration files and volumes of its own. */
export interface ServiceVolumesProps {
  /** Configuration files, in a ConfigMap `<component>-config`. @default - none */
  readonly config?: ConfigDirectory;
  /** @default - none */
  readonly volumes?: k8s.Volume[];
  /** @default - none */
  readonly volumeMounts?: k8s.VolumeMount[];
}

/** The volumes of a service's pod, its mounts, and the annotation that rolls it on a config change. */
export interface ServiceVolumes {
  /** The configuration files, when the service has any. */
  readonly config?: ConfigFiles;
  /** The config checksum, for the pod template: a change of the files rolls the pods. */
  readonly annotations?: Record<string, string>;
  readonly volumes: k8s.Volume[];
  /** For the service's container. */
  readonly volumeMounts: k8s.VolumeMount[];
}

/**
 * The volumes of an OpenStack service's pod (an API's or a worker's): its configuration files, each
 * mounted as `<mountPath>/<file>`, the volumes it brings, and a scratch `/tmp` (an emptyDir), in
 * that order.
 */
export function serviceVolumes(component: Component, props: ServiceVolumesProps): ServiceVolumes {
  const config = props.config
    ? configFiles(component, props.config.mountPath, props.config.files)
    : undefined;
  return {
    config,
    annotations: config ? { [CONFIG_CHECKSUM_ANNOTATION]: config.checksum } : undefined,
    volumes: [...(config ? [config.volume] : []), ...(props.volumes ?? []), { name: 'tmp', emptyDir: {} }],
    volumeMounts: [
      ...(config?.mounts ?? []),
      ...(props.volumeMounts ?? []),
      { name: 'tmp', mountPath: '/tmp' },
    ],
  };
}
