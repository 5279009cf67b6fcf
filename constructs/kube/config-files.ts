import { createHash } from 'crypto';
import { k8s } from 'cdk8s-plus-33';
import { Component, JsonApiObject } from '../../lib/model';

/** Configuration files as a component is given them: their directory and their text by file name. */
export interface ConfigDirectory {
  /** Each file is mounted read-only as `<mountPath>/<file>`. */
  readonly mountPath: string;
  readonly files: Readonly<Record<string, string>>;
}

export interface ConfigFiles {
  readonly configMap: JsonApiObject<k8s.KubeConfigMapProps>;
  readonly volume: k8s.Volume;
  /**
   * One read-only mount per file, at `<directory>/<file>` (subPath): the files add to the
   * directory and never hide what the image keeps there (paste pipelines, policies, rootwrap).
   */
  readonly mounts: k8s.VolumeMount[];
  /**
   * The ConfigMap over the whole directory, for a directory the component owns entirely (one
   * no image file lives in, e.g. MariaDB's `conf.d`).
   */
  readonly mount: k8s.VolumeMount;
  /** Hash of the content: put on the pod template so a config change rolls the pods. */
  readonly checksum: string;
}

/**
 * Configuration files of a component in a ConfigMap named `<component>-config`, each mounted
 * read-only as `<directory>/<file>`. A ConfigMap mounted over a whole directory would hide the
 * image's files in it (api-paste.ini, rootwrap.conf, policy files), which the services need; a
 * file mounted by subPath is not refreshed in a running pod, which the checksum annotation makes
 * moot (a change rolls the pods). Only non-secret content belongs here; credentials come from Secrets.
 */
export function configFiles(
  component: Component,
  directory: string,
  files: Readonly<Record<string, string>>,
): ConfigFiles {
  const name = `${component.componentName}-config`;
  const data = Object.fromEntries(
    Object.keys(files)
      .sort()
      .map((f) => [f, files[f]]),
  );
  const configMap = new JsonApiObject(component, 'config', k8s.KubeConfigMap, { metadata: { name }, data });
  return {
    configMap,
    volume: { name: 'config', configMap: { name } },
    mount: { name: 'config', mountPath: directory, readOnly: true },
    mounts: Object.keys(data).map((file) => ({
      name: 'config',
      mountPath: `${directory}/${file}`,
      subPath: file,
      readOnly: true,
    })),
    checksum: createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 16),
  };
}

/** The pod annotation carrying the config checksum. */
export const CONFIG_CHECKSUM_ANNOTATION = 'stackwright.io/config-checksum';
