#!/usr/bin/env bash
# Test of scripts/lib/cpu-group.sh on the real cpu controller: two busy loops share one core, one
# in a group at weight 10 and in a session of its own (setsid, as .ci/run starts what runs beside
# the real node), the other outside it; the one outside must get most of the core. Then: a weight
# out of range is refused, the group is removed, and without a writable controller the command
# still runs (at the default weight) and the fact is said. Needs root (cgroupfs).
#
#   bash scripts/lib/tests/cpu-group.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/lib/cpu-group.sh
source "$HERE/../cpu-group.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
((EUID == 0)) || { echo "needs root (cgroupfs)" >&2; exit 1; }
cpu_group_controller >/dev/null || fail "no writable cpu controller on this machine"

group="stackwright-test-$$"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; cpu_group_remove "$group"' EXIT
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# GIVEN a group at a tenth of a default group's weight
cpu_group_weight "$group" 10 2>/dev/null
# WHEN a busy loop runs in it (in a session of its own) and another outside it, on the same core
setsid taskset -c 0 bash -c 'source "$1" && cpu_group_exec "$2" bash -c "while :; do :; done"' _ \
  "$HERE/../cpu-group.sh" "$group" &
pids+=($!)
taskset -c 0 bash -c 'while :; do :; done' &
pids+=($!)
sleep 4
inside="$(cpu_ticks "${pids[0]}")"
outside="$(cpu_ticks "${pids[1]}")"
# THEN the group holds the loop, and the loop outside got most of the core
cpu_group_members "$group" | grep -qx "${pids[0]}" || fail "the loop is not in the group"
echo "cpu ticks in 4 s on one core: in the group (weight 10) $inside, outside $outside"
((outside > 4 * inside)) || fail "the group's weight did not hold: inside $inside, outside $outside ticks"

# AND a weight out of range is refused, naming the range
if out="$(cpu_group_weight "$group" 0 2>&1)"; then fail "weight 0 accepted"; fi
grep -q "from 1 to 10000" <<<"$out" || fail "weight 0: unexpected message: $out"

# AND the group is removed, its processes moved back to the root group
kill "${pids[@]}"
wait 2>/dev/null || true
pids=()
cpu_group_remove "$group"
[[ -z "$(cpu_group_members "$group")" ]] || fail "the group still has members after removal"
read -r root _ <<<"$(cpu_group_controller)"
[[ ! -d "$root/$group" ]] || fail "$root/$group is still there"

# AND without a writable controller the command runs all the same, and that is said
out="$(CPU_GROUP_ROOT=/nonexistent bash -c 'source "$1" && cpu_group_exec somegroup echo ran' _ "$HERE/../cpu-group.sh" 2>&1)"
grep -qx ran <<<"$out" || fail "without a controller the command did not run: $out"
grep -q "no writable cpu cgroup controller" <<<"$out" || fail "without a controller nothing was said: $out"
echo "cpu-group: ok"
