import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { App } from 'cdk8s';
import { parseAllDocuments } from 'yaml';
import { KubeObject } from '../../lib/graph';
import { synthObjects } from '../../lib/testing';
import { referenceCloud } from '../../stacks/reference-cloud';
import { scriptFindings, secretsOnArgv } from '../support/secrets-on-argv';

const before = (): KubeObject[] =>
  parseAllDocuments(readFileSync(path.join(__dirname, 'fixtures/secrets-on-argv-before.yaml'), 'utf8')).map(
    (d) => d.toJSON() as KubeObject,
  );

describe('no secret reaches a process argv', () => {
  test('no container command, args, probe, hook or ConfigMap script of the reference cloud passes one', () => {
    // GIVEN
    const objects = synthObjects(referenceCloud(new App()));
    // WHEN
    const findings = secretsOnArgv(objects);
    // THEN none (the Nova cell mapping, the last exposure, hands its URLs to nova-manage through
    // its environment: proven with the real nova-manage by scripts/openstack/check_cell_mapping.py)
    expect(findings).toEqual([]);
  });

  test('the scanner finds each exposure of the Jobs as they were synthesised before', () => {
    // GIVEN the generator, db-init, bootstrap, registration, Heat domain and mq-init Jobs of commit c32641f
    const objects = before();
    // WHEN
    const findings = secretsOnArgv(objects);
    // THEN every one of them has at least one finding, each of the expected kind
    const byJob = (name: string) => findings.filter((f) => f.startsWith(`Job/${name} `));
    expect(byJob('glance-db-credentials')).toEqual([
      'Job/glance-db-credentials container main: `kubectl` gets a secret on its argv: --from-literal=password="$(openssl rand -hex 24)"',
    ]);
    expect(byJob('glance-db-init')).toContainEqual(
      'Job/glance-db-init container main: `mariadb` gets a secret on its argv: -p"$ADMIN_PASSWORD"',
    );
    expect(byJob('glance-db-init')).toContainEqual(
      'Job/glance-db-init container main: password option -p"$ADMIN_PASSWORD" on argv',
    );
    expect(byJob('keystone-bootstrap')).toEqual([
      'Job/keystone-bootstrap container main: Kubernetes expands the secret $(ADMIN_PASSWORD) into argv',
      'Job/keystone-bootstrap container main: password option --bootstrap-password on argv',
    ]);
    expect(byJob('glance-ks-register')).toContainEqual(
      'Job/glance-ks-register container main: password option --password on argv',
    );
    expect(byJob('heat-domain-setup')).toContainEqual(
      'Job/heat-domain-setup container main: `openstack` gets a secret on its argv: "$DOMAIN_ADMIN_PASSWORD"',
    );
    expect(byJob('cinder-mq-init')).toContainEqual(
      'Job/cinder-mq-init container main: `curl` gets a secret on its argv: "admin:$ADMIN_PASSWORD"',
    );
  });
});

describe('scriptFindings', () => {
  const secret = new Set(['PW']);

  test.each([
    ['a secret as an argument', 'mariadb -u root -p"$PW"'],
    ['a braced reference', 'curl -u "admin:${PW}" http://x'],
    ['a variable assigned from a secret', 'auth="admin:$PW"\ncurl -u "$auth" http://x'],
    ['a generated value', 'kubectl create secret generic x --from-literal=k="$(openssl rand -hex 24)"'],
    ['a secret inside a command substitution', 'x=$(mysql -p"$PW" -e "select 1")'],
    ['a program after exec', 'exec server --token "$PW"'],
  ])('finds %s', (_name, script) => {
    expect(scriptFindings(script, secret)).not.toEqual([]);
  });

  test.each([
    ['a builtin writing into a pipe', `printf '%s' "$PW" | kubectl create -f -`],
    ['an env assignment before a command', 'MYSQL_PWD="$PW" mariadb -u root -e "select 1"'],
    ['a here-document body', "mariadb -u root <<SQL\nALTER USER 'x' IDENTIFIED BY '$PW';\nSQL\necho done"],
    [
      'a generated value through printf',
      `printf '{"k":"%s"}' "$(openssl rand -hex 24)" | kubectl create -f -`,
    ],
    ['a secret escaped by a pipeline of builtin and filter', `a=$(printf '%s' "$PW" | sed 's/x/y/')`],
    ['a redirection into a file', `printf 'password = %s' "$PW" >/run/client.cnf`],
  ])('accepts %s', (_name, script) => {
    expect(scriptFindings(script, secret)).toEqual([]);
  });
});
