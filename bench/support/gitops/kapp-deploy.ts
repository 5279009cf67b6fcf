import * as path from 'path';
import { KAPP_FOLDER } from '../../../lib/export';

/**
 * The arguments of `kapp deploy` for a layout written by `exportKapp` into `dir`: one app whose
 * record lives in `default`, no diff printed, kapp's own defaults unless `extra` sets them.
 */
export function kappDeployArgs(
  app: string,
  dir: string,
  kubeconfig: string,
  extra: readonly string[] = [],
): string[] {
  return [
    'deploy',
    '--app',
    app,
    '--namespace',
    'default',
    '--file',
    path.join(dir, KAPP_FOLDER),
    '--yes',
    '--diff-changes=false',
    ...extra,
    `--kubeconfig=${kubeconfig}`,
  ];
}
