#!/usr/bin/env bash
# CI: the infrastructure constructs proven without Kubernetes (test/infra-local): a 3-member
# MariaDB/Galera and a 3-member RabbitMQ run from the synthesised manifests, as uid 42424 on a
# read-only root, in network namespaces of their own. Installs the servers' Debian packages first
# when missing, without letting the packages start their own services (a policy-rc.d that denies
# starts is put in place only for the install, and only when none exists), and checks afterwards
# that nothing listens on the servers' ports. Needs root.
set -euo pipefail
cd "$(dirname "$0")/../.."

packages=(mariadb-server galera-4 mariadb-backup socat rabbitmq-server)
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ "${#missing[@]}" -gt 0 ]; then
  policy=/usr/sbin/policy-rc.d
  own_policy=
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy"
    own_policy=yes
  fi
  apt-get update -q
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  if [ -n "$own_policy" ]; then rm -f "$policy"; fi
fi

bash test/infra-local/galera.sh
bash test/infra-local/rabbitmq.sh

# Nothing may be left listening where the servers would (the packages' own services included).
if ss -Hltn | awk '{print $4}' | grep -Eq ':(3306|4567|5672|4369|25672)$'; then
  ss -ltnp | grep -E ':(3306|4567|5672|4369|25672) ' >&2
  echo "infra-local: a server is still listening" >&2
  exit 1
fi
