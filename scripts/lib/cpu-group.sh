# shellcheck shell=bash
# A CPU group: a cgroup whose processes (and all they start, setsid or not) share one weight
# against the rest of the machine. Used by .ci/run to give the real node's suites the cores first
# while the kwok lane, the Node 24 unit run and Pulumi's build run beside them. Sourced, never
# executed.
#
# Why not nice: with kernel.sched_autogroup_enabled=1 (Debian's default) every session (each
# setsid daemon, each background build) is its own scheduling group of equal weight, and nice only
# orders the tasks inside one session. A cgroup's weight holds across sessions.
#
# WEIGHT is a percentage of a default group (a session at nice 0): 100 is an equal share, 25 a
# quarter. cgroup v1 (`cpu.shares`, 1024 = 100) and v2 (`cpu.weight`, 100 = 100) are both handled.
# Without a writable cpu controller (not root, no cgroupfs) every function says so once and
# returns 0: the processes then run at the default weight, as they would without this file.
#
#   CPU_GROUP_ROOT  where the cpu controller is mounted (default: detected under /sys/fs/cgroup)

cpu_group_log() { printf '[cpu-group] %s\n' "$*" >&2; }

# The cpu controller's mount and its weight file, or nothing when there is none we can write.
cpu_group_controller() {
  local root="${CPU_GROUP_ROOT:-}"
  if [[ -z "$root" ]]; then
    if [[ -f /sys/fs/cgroup/cpu/cpu.shares || -f /sys/fs/cgroup/cpu/tasks ]]; then
      root=/sys/fs/cgroup/cpu
    elif grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
      root=/sys/fs/cgroup
    fi
  fi
  [[ -n "$root" && -w "$root" ]] || return 1
  if [[ -f "$root/cgroup.subtree_control" ]]; then echo "$root cpu.weight"; else echo "$root cpu.shares"; fi
}

cpu_group_unavailable_said=
cpu_group_unavailable() {
  [[ -n "$cpu_group_unavailable_said" ]] ||
    cpu_group_log "no writable cpu cgroup controller (needs root and cgroupfs): everything runs at the default weight"
  cpu_group_unavailable_said=1
}

# cpu_group_weight NAME WEIGHT: create the group if needed and set its weight.
cpu_group_weight() {
  local name=$1 weight=$2 controller root file value
  [[ "$weight" =~ ^[0-9]+$ ]] && ((weight >= 1 && weight <= 10000)) || {
    cpu_group_log "weight must be a percentage from 1 to 10000, got '$weight'"
    return 1
  }
  controller="$(cpu_group_controller)" || { cpu_group_unavailable; return 0; }
  read -r root file <<<"$controller"
  mkdir -p "$root/$name"
  if [[ "$file" == cpu.shares ]]; then value=$((weight * 1024 / 100)); else value=$weight; fi
  ((value >= 2)) || value=2
  echo "$value" >"$root/$name/$file"
  cpu_group_log "$name: weight $weight% of a default group ($file=$value)"
}

# cpu_group_exec NAME COMMAND...: replace this process by COMMAND inside the group (created at
# weight 100 when it does not exist); COMMAND's children stay in it.
cpu_group_exec() {
  local name=$1 controller root file
  shift
  if controller="$(cpu_group_controller)"; then
    read -r root file <<<"$controller"
    [[ -d "$root/$name" ]] || cpu_group_weight "$name" 100
    echo "$BASHPID" >"$root/$name/cgroup.procs"
  else
    cpu_group_unavailable
  fi
  exec "$@"
}

# cpu_group_members NAME: the PIDs in the group, one per line.
cpu_group_members() {
  local controller root file
  controller="$(cpu_group_controller)" || return 0
  read -r root file <<<"$controller"
  [[ -f "$root/$1/cgroup.procs" ]] && cat "$root/$1/cgroup.procs"
  return 0
}

# cpu_group_remove NAME: move what is left in the group back to the root group and delete it.
cpu_group_remove() {
  local name=$1 controller root file pid
  controller="$(cpu_group_controller)" || return 0
  read -r root file <<<"$controller"
  [[ -d "$root/$name" ]] || return 0
  while read -r pid; do
    echo "$pid" >"$root/cgroup.procs" 2>/dev/null || true
  done <"$root/$name/cgroup.procs"
  rmdir "$root/$name" 2>/dev/null || cpu_group_log "$name: could not remove $root/$name (busy)"
}
