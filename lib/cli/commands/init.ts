import * as fs from 'fs';
import * as path from 'path';
import { ExitCode } from '../exit-codes';
import { CliIo } from '../io';
import { ProjectLanguage, projectFiles, ProjectVersions } from '../init/project-files';
import { UsageError } from './common';
import { ownPackageJson } from '../own-package-json';

/** What `stackwright init` may find in the directory and still write there. */
const ALLOWED_ENTRIES = new Set(['.git']);

/** The packages a new project installs beside `stackwright`. */
const PROJECT_PACKAGES = [
  'cdk8s',
  'constructs',
  'cdk8s-cli',
  'typescript',
  'jest',
  'ts-jest',
  '@types/jest',
  '@types/node',
  'ts-node',
] as const;

/** Ranges of the project's tools that are not among our own (dev) dependencies. */
const OTHER_TOOLS: Readonly<Record<string, string>> = { 'ts-node': '^10.9.2' };

/**
 * `stackwright init [dir]`: writes a new project into `dir` (default: the current directory), which
 * must be empty or missing. In it, `npm install`, `npx cdk8s synth` and `npm test` work at once.
 */
export function initCommand(
  io: CliIo,
  dir: string | undefined,
  options: { language: ProjectLanguage },
): number {
  const target = path.resolve(io.cwd, dir ?? '.');
  const shown = path.relative(io.cwd, target) || '.';
  if (fs.existsSync(target)) {
    if (!fs.statSync(target).isDirectory())
      throw new UsageError(`${shown} is a file; choose a new directory: stackwright init <dir>`);
    const entries = fs.readdirSync(target).filter((e) => !ALLOWED_ENTRIES.has(e));
    if (entries.length > 0) {
      const listed = entries.sort().slice(0, 5).join(', ') + (entries.length > 5 ? ', …' : '');
      throw new UsageError(
        `${shown} is not empty (${listed}); stackwright init writes a new project: choose a new or empty directory, e.g. stackwright init my-cloud`,
      );
    }
  }
  const base = path.basename(target);
  const files = projectFiles({
    name: packageName(base),
    cloudId: cloudId(base),
    language: options.language,
    versions: projectVersions(),
  });
  fs.mkdirSync(target, { recursive: true });
  for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(target, file), content);
  const cd = shown === '.' ? '' : `cd ${shown} && `;
  io.stdout.write(
    `Wrote a new ${options.language} project to ${shown}: ${Object.keys(files).join(', ')}\n` +
      `Next: ${cd}npm install && npx cdk8s synth && npm test\n`,
  );
  return ExitCode.OK;
}

/** An npm package name from a directory name: lower case, URL-safe, at most 214 characters. */
function packageName(base: string): string {
  const name = base
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '')
    .slice(0, 214);
  return name || 'my-cloud';
}

/** A DNS-1123 label from a directory name, for the cloud's id (it prefixes names and labels). */
function cloudId(base: string): string {
  const id = base
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^[^a-z]+/, '')
    .slice(0, 30)
    .replace(/-+$/, '');
  return id || 'cloud';
}

/**
 * The versions of this `stackwright` and of the packages a project needs, from its package.json:
 * the peer ranges for cdk8s and constructs, the tested tool versions (our devDependencies, as
 * caret ranges) for the rest.
 */
function projectVersions(): ProjectVersions {
  const own = ownPackageJson();
  const packages = Object.fromEntries(
    PROJECT_PACKAGES.map((name) => {
      const peer = own.peerDependencies?.[name];
      const dev = own.devDependencies?.[name];
      const range = peer ?? (dev ? caret(dev) : OTHER_TOOLS[name]);
      if (!range) throw new Error(`stackwright's package.json has no version of ${name}`);
      return [name, range];
    }),
  );
  return { stackwright: own.version, packages };
}

function caret(version: string): string {
  return /^\d/.test(version) ? `^${version}` : version;
}
