/**
 * The export root's path inside the repository the engine reads, without `./`, a trailing slash or
 * `..` (`''` for the repository root); engines resolve their paths from the repository root.
 */
export function normaliseRepoPath(repoPath: string): string {
  const trimmed = repoPath.replace(/^\.\//, '').replace(/\/+$/, '');
  if (trimmed.startsWith('/') || trimmed.split('/').includes('..')) {
    throw new Error(
      `repository path "${repoPath}" must be relative to the repository root without "..", e.g. clusters/prod/openstack`,
    );
  }
  return trimmed === '.' ? '' : trimmed;
}

/** Joins a normalised repository path and a path below the export root. */
export function joinRepoPath(repoPath: string, path: string): string {
  return [repoPath, path].filter((p) => p !== '').join('/');
}
