import { existsSync, readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { Construct } from 'constructs';
import { Cloud } from '../../lib/model';
import { OsloSchema } from './oslo-config';
import { keepTextsApart, OptionTexts } from './option-texts';

/**
 * The oslo.config files of the OpenStack services that have generated option schemas, one per
 * file the services read (neutron-server and its OVN metadata agent read different options).
 */
export type OpenStackSchemaName =
  | 'keystone'
  | 'glance-api'
  | 'placement'
  | 'nova'
  | 'neutron'
  | 'neutron-ovn-metadata-agent'
  | 'cinder'
  | 'barbican'
  | 'heat'
  | 'ironic'
  | 'gnocchi'
  | 'ceilometer';

/**
 * One generated schema file: `constructs/openstack/schemas/<release>/<name>.json`. The options'
 * texts (oslo.config's type name, help) are in `<name>.help.json` beside it, read only when a
 * problem is explained: they are three quarters of the bytes, and every synthesis parsed them.
 */
export interface OpenStackSchemaFile {
  readonly schema: OpenStackSchemaName;
  readonly release: string;
  /** The Python distributions the options were read from, with their versions. */
  readonly versions: Readonly<Record<string, string>>;
  /** The oslo-config-generator namespaces the service loads. */
  readonly namespaces: readonly string[];
  readonly sections: OsloSchema;
}

/**
 * Where the schemas are: beside this file in a source checkout (ts-node, jest), at the package
 * root's `constructs/openstack/schemas` when running the compiled `dist-lib` (tsc does not copy
 * data files; the package ships the source tree's data).
 */
const SCHEMA_ROOTS = [
  join(__dirname, '..', 'openstack', 'schemas'),
  join(__dirname, '..', '..', '..', 'constructs', 'openstack', 'schemas'),
];

const loaded = new Map<string, OpenStackSchemaFile | undefined>();

/** The generated schema of `name` for `release`, or undefined when none was generated. */
export function loadOpenStackSchema(
  name: OpenStackSchemaName,
  release: string,
): OpenStackSchemaFile | undefined {
  const key = `${release}/${name}`;
  if (!loaded.has(key)) {
    const file = SCHEMA_ROOTS.map((root) => join(root, release, `${name}.json`)).find((f) => existsSync(f));
    const schema = file ? (JSON.parse(readFileSync(file, 'utf8')) as OpenStackSchemaFile) : undefined;
    if (file && schema) keepTextsApart(schema.sections, textsIn(file.replace(/\.json$/, '.help.json')));
    loaded.set(key, schema);
  }
  return loaded.get(key);
}

/** The texts of a schema's options, from its `.help.json`, read on the first question. */
function textsIn(file: string): (section: string, option: string) => OptionTexts | undefined {
  let sections: Record<string, Record<string, OptionTexts>> | undefined;
  return (section, option) => {
    sections ??= (JSON.parse(readFileSync(file, 'utf8')) as { sections: typeof sections }).sections;
    return sections?.[section]?.[option];
  };
}

let releases: readonly string[] | undefined;

/** Releases with generated schemas, oldest first (read once: every service asks). */
export function generatedReleases(): readonly string[] {
  if (!releases) {
    const root = SCHEMA_ROOTS.find((r) => existsSync(r));
    releases = root ? readdirSync(root).sort() : [];
  }
  return releases;
}

/**
 * The options `name` reads in the cloud's release, generated from the service's own code: what
 * user overrides are validated against and how values are rendered. The cloud accepts only releases
 * the package carries schemas for (`SUPPORTED_RELEASES`), so a missing file is a broken package.
 */
export function openstackOptionSchema(scope: Construct, name: OpenStackSchemaName): OsloSchema {
  const release = Cloud.of(scope).release;
  const file = loadOpenStackSchema(name, release);
  if (!file)
    throw new Error(
      `[${scope.node.path}] no generated option schema for ${name} ${release} in ${SCHEMA_ROOTS.join(' or ')}; ` +
        `reinstall the package, or in a source checkout run \`bash scripts/openstack/schemas.sh ${release}\``,
    );
  return file.sections;
}
