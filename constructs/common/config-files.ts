import { createHash } from 'crypto';
import { k8s } from 'cdk8s-plus-33';
import { Component } from '../../lib/model';

export interface ConfigFiles {
  readonly configMap: k8s.KubeConfigMap;
  readonly volume: k8s.Volume;
  readonly mount: k8s.VolumeMount;
  /** Hash of the content: put on the pod template so a config change rolls the pods. */
  readonly checksum: string;
}

/**
 * Configuration files of a component in a ConfigMap named `<component>-config`, mounted read-only
 * at `mountPath`. Only non-secret content belongs here; credentials come from Secrets.
 */
export function configFiles(
  component: Component,
  mountPath: string,
  files: Readonly<Record<string, string>>,
): ConfigFiles {
  const name = `${component.componentName}-config`;
  const data = Object.fromEntries(
    Object.keys(files)
      .sort()
      .map((f) => [f, files[f]]),
  );
  const configMap = new k8s.KubeConfigMap(component, 'config', { metadata: { name }, data });
  return {
    configMap,
    volume: { name: 'config', configMap: { name } },
    mount: { name: 'config', mountPath, readOnly: true },
    checksum: createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 16),
  };
}

/** The pod annotation carrying the config checksum. */
export const CONFIG_CHECKSUM_ANNOTATION = 'stackwright.io/config-checksum';
