import { UpgradeCommand } from './upgrade-phase';

/**
 * How one OpenStack service is upgraded, from its project's own upgrade documentation (see
 * docs/upgrades.md for the sources). Data only: the plan (upgrade-plan.ts) places it in the
 * cloud-wide order.
 */
export interface ServiceRecipe {
  /** Checks with the new code against the old database before anything changes. */
  readonly preChecks: readonly UpgradeCommand[];
  /** Schema changes the old code survives, run before the new pods. */
  readonly expand: readonly UpgradeCommand[];
  /**
   * Groups of the service's workloads in roll order, each a list of name fragments matched
   * against the part of the component name after the service (`nova-cell1-conductor` matches
   * `conductor`); a group rolls only when the one before it is on the new image and ready. Workloads
   * that match no group roll first.
   */
  readonly rollOrder: readonly (readonly string[])[];
  /** Schema changes only the new code survives, once no old pod is left. @default none */
  readonly contract: readonly UpgradeCommand[];
  /** Data migrations that need every service on the new code. @default none */
  readonly onlineDataMigrations: readonly UpgradeCommand[];
  /** The checks after the upgrade. */
  readonly postChecks: readonly UpgradeCommand[];
  /**
   * The steps for each further cell of the service (a database of its own, migrated by a Job
   * annotated `cell-schema-sync`), run in a Job made from that cell's template within the same
   * unit as the service's own steps: the service's commands reach only its own database.
   * @default none
   */
  readonly cells?: {
    readonly expand: readonly UpgradeCommand[];
    readonly onlineDataMigrations: readonly UpgradeCommand[];
  };
}

const STATUS_CHECK_MEANINGS = {
  0: 'all checks passed',
  1: 'a check passed with a warning',
  2: 'a check failed: the upgrade cannot go on',
  255: 'the check itself broke',
};

/** `<service>-status upgrade check` (oslo.upgradecheck): 0 success, 1 warning, 2 failure. */
function statusCheck(service: string, accept: readonly number[] = [0, 1]): UpgradeCommand {
  return { command: `${service}-status upgrade check`, accept, meanings: STATUS_CHECK_MEANINGS };
}

function plain(command: string): UpgradeCommand {
  return { command, accept: [0], meanings: { 0: 'done', 1: 'failed' } };
}

const KEYSTONE_CHECK_MEANINGS = {
  0: 'the schema is up to date',
  1: 'the schema is broken or the check failed',
  2: 'expand is pending',
  3: 'migrate is pending',
  4: 'contract is pending',
};

/** `keystone-manage db_sync --check`, accepting `accept`. */
function keystoneCheck(accept: readonly number[]): UpgradeCommand {
  return { command: 'keystone-manage db_sync --check', accept, meanings: KEYSTONE_CHECK_MEANINGS };
}

/** Nova's online data migrations, a batch at a time: 1 means rows are left. */
const NOVA_ONLINE_DATA_MIGRATIONS: UpgradeCommand = {
  command: 'nova-manage db online_data_migrations --max-count 1000',
  accept: [0],
  repeat: [1],
  meanings: {
    0: 'no migration left',
    1: 'migrations left: run again',
    2: 'a migration failed',
    127: 'invalid input',
  },
};

/** The recipes, by service name (the `stackwright.io/service` annotation). */
export const SERVICE_RECIPES: Readonly<Record<string, ServiceRecipe>> = {
  keystone: {
    // Before: new code, old schema: expand (2) is the expected answer when the release adds migrations.
    // doctor's symptoms are advice (it exits 1 when it finds any, e.g. a key repository the
    // schema Job's pod does not mount): printed in the Job's log, not a gate.
    preChecks: [
      {
        command: 'keystone-manage doctor',
        accept: [0, 1],
        meanings: { 0: 'no symptom found', 1: "symptoms found: advice in the Job's log" },
      },
      keystoneCheck([0, 2]),
    ],
    expand: [plain('keystone-manage db_sync --expand')],
    rollOrder: [['api']],
    contract: [plain('keystone-manage db_sync --contract')],
    onlineDataMigrations: [],
    postChecks: [keystoneCheck([0])],
  },
  glance: {
    preChecks: [],
    expand: [plain('glance-manage db expand'), plain('glance-manage db migrate')],
    rollOrder: [['api']],
    contract: [plain('glance-manage db contract')],
    onlineDataMigrations: [],
    postChecks: [plain('glance-manage db check')],
  },
  placement: {
    preChecks: [statusCheck('placement')],
    expand: [plain('placement-manage db sync')],
    rollOrder: [['api']],
    contract: [],
    onlineDataMigrations: [],
    postChecks: [statusCheck('placement', [0])],
  },
  nova: {
    preChecks: [statusCheck('nova')],
    expand: [plain('nova-manage api_db sync'), plain('nova-manage db sync')],
    // Conductors first (they refuse computes older than N-1, and backport objects for the rest), the
    // API last, computes after the control plane.
    rollOrder: [['conductor'], ['scheduler'], ['vnc', 'metadata'], ['api'], ['compute']],
    contract: [],
    onlineDataMigrations: [NOVA_ONLINE_DATA_MIGRATIONS],
    postChecks: [statusCheck('nova')],
    // `nova-manage db sync` migrates `[database]` (cell 1) and cell0 only, and the online data
    // migrations work on `[database]` too: every further cell gets both in its own pod.
    cells: {
      expand: [plain('nova-manage db sync --local_cell')],
      onlineDataMigrations: [NOVA_ONLINE_DATA_MIGRATIONS],
    },
  },
  neutron: {
    preChecks: [statusCheck('neutron')],
    expand: [plain('neutron-db-manage upgrade --expand')],
    // Servers before agents.
    rollOrder: [['api', 'server'], ['agent']],
    // Online only when nothing is pending offline: has_offline_migrations exits 0 when none is.
    contract: [
      {
        command: 'neutron-db-manage has_offline_migrations',
        accept: [0],
        meanings: {
          0: 'no offline migration pending: contract may run online',
          1: 'offline migrations pending: contract needs every neutron-server stopped',
        },
      },
      plain('neutron-db-manage upgrade --contract'),
    ],
    onlineDataMigrations: [],
    // A warning (1) is accepted after as before: neutron-status warns about the deployment, not
    // the upgrade (worker counts left to their defaults, OVN features such as iPXE over IPv6 that
    // Debian's OVN 23.03 lacks), which no upgrade step clears. Requiring 0 stopped the real node's
    // upgrade at its last phase with every pod already on the new release.
    postChecks: [statusCheck('neutron')],
  },
  cinder: {
    preChecks: [statusCheck('cinder')],
    expand: [plain('cinder-manage db sync')],
    // Scheduler, volume, backup, API last.
    rollOrder: [['scheduler'], ['volume'], ['backup'], ['api']],
    contract: [],
    onlineDataMigrations: [
      {
        command: 'cinder-manage db online_data_migrations --max_count 1000',
        accept: [0],
        repeat: [1],
        meanings: { 0: 'no migration left', 1: 'migrations left: run again', 2: 'a migration failed' },
      },
    ],
    postChecks: [statusCheck('cinder', [0])],
  },
};
