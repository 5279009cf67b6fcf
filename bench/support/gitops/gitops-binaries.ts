import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
// Compiled copies run from dist-lib/bench/..., two levels further down.
const BUILD_SCRIPT = ['scripts/gitops/build.sh', '../scripts/gitops/build.sh']
  .map((p) => path.join(REPO_ROOT, p))
  .find((p) => fs.existsSync(p)) as string;

/** What scripts/gitops/build.sh leaves in its cache. */
export interface GitOpsBinaries {
  readonly kustomizeController: string;
  readonly kapp: string;
  /** The Flux CRDs (Kustomization and the sources), from the Go module zips. */
  readonly crdDir: string;
}

/**
 * The engines built by scripts/gitops/build.sh. Throws, saying how to build them, when any is
 * missing: a run without the real controllers proves nothing, so it must fail, not skip.
 */
export function gitOpsBinaries(): GitOpsBinaries {
  const dir = execFileSync('bash', [BUILD_SCRIPT, '--dir'], { encoding: 'utf8' }).trim();
  const binaries = {
    kustomizeController: path.join(dir, 'bin', 'kustomize-controller'),
    kapp: path.join(dir, 'bin', 'kapp'),
    crdDir: path.join(dir, 'crds'),
  };
  const missing = Object.values(binaries).filter((p) => !fs.existsSync(p));
  if (missing.length > 0) {
    throw new Error(
      `${missing.join(', ')} missing: build Flux's kustomize-controller and kapp with \`bash scripts/gitops/build.sh\` (cold: 8-15 minutes of CPU on 2 cores; \`--background\`/\`--wait\` in CI)`,
    );
  }
  return binaries;
}
