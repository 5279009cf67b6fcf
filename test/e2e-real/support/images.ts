import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { OpenStackRelease } from '../../../lib/graph';

/**
 * The images the real-node suite runs: built on this machine by scripts/images/build.sh and imported
 * into the real node's containerd by scripts/images/import.sh (no registry is reachable); the tags
 * are those of images/*.toml. The OpenStack service images follow `Cloud.image(name, release)`
 * under this registry; the others are named here.
 */
export const LOCAL_REGISTRY = 'stackwright.local';

export const LOCAL_IMAGES = {
  /** Jobs that write Secrets: sh, kubectl, openssl. */
  toolbox: `${LOCAL_REGISTRY}/toolbox:1.36`,
  /** Debian's MariaDB and RabbitMQ: other versions than the constructs' default tags. */
  mariadb: `${LOCAL_REGISTRY}/mariadb:10.11`,
  rabbitmq: `${LOCAL_REGISTRY}/rabbitmq:3.10`,
  memcached: `${LOCAL_REGISTRY}/memcached:1.6`,
  /** python-openstackclient and openstacksdk, for the checks through the cloud's Services. */
  openstackClient: `${LOCAL_REGISTRY}/openstackclient:2025.1`,
  /** Tempest (the release's, see TEMPEST_RELEASES) on the OpenStack layer, with openstacksdk. */
  tempest: `${LOCAL_REGISTRY}/tempest:2025.1`,
  /** Debian's OVN 23.03 and Open vSwitch 3.1: the OVSDB clusters, northd and the OVN agent. */
  ovn: `${LOCAL_REGISTRY}/ovn:23.03`,
  /** Debian's libvirt 9.0 and QEMU 7.2. */
  libvirt: `${LOCAL_REGISTRY}/libvirt:9.0`,
  /** sh and coreutils: storage and network checks of the node itself. */
  minbase: `${LOCAL_REGISTRY}/minbase:bookworm`,
} as const;

/** nova-compute of a release, with Debian's libvirt binding (images/nova-compute.toml). */
export function novaComputeImage(release: OpenStackRelease): string {
  return `${LOCAL_REGISTRY}/nova-compute:${release}`;
}

/** The test guest's qcow2 (scripts/images/guest.sh path), built with the images. */
export function guestImage(): Buffer {
  const script = path.resolve(__dirname, '..', '..', '..', 'scripts', 'images', 'guest.sh');
  const res = spawnSync('bash', [script, 'path'], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`guest.sh path failed: ${res.stderr}; build the images first`);
  return readFileSync(res.stdout.trim());
}
