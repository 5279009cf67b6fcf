#!/usr/bin/env bash
# RabbitMQ as the RabbitMQ construct synthesises it, three members run from the rendered manifests
# without Kubernetes (see lib.sh), all started at once as Parallel pod management starts them: they
# form one cluster (`rabbitmqctl cluster_status` lists three running nodes, every member ready by
# the pod's own readiness probe), the admin user from the Secret authenticates, member 0 rejoins
# after a crash, member 1's container restarts in its pod (the kubelet's restartPolicy Always), and
# the cluster comes back after every member stopped and all start at once.
# Needs root and the Debian package rabbitmq-server.
# Usage: sudo bash test/infra-local/rabbitmq.sh   (STACKWRIGHT_INFRA_KEEP=1 keeps the work dir on failure)
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

[ -x /usr/lib/rabbitmq/bin/rabbitmq-server ] || fail "rabbitmq-server missing: apt-get install rabbitmq-server"

render rabbitmq
add_members rabbitmq rabbitmq-peers 3

ready() { probe rabbitmq "$1" readiness; }
all_ready() { ready 0 && ready 1 && ready 2; }
running_nodes() { # the running nodes member $1 reports, one per line
  in_member rabbitmq "$1" rabbitmqctl -q cluster_status --formatter json 2>/dev/null |
    grep -o '"running_nodes":\[[^]]*\]' | grep -o 'rabbit@[^"]*' | sort
}
three_running() {
  [ "$(running_nodes "$1" | tr '\n' ' ')" = \
    "rabbit@rabbitmq-0.rabbitmq-peers rabbit@rabbitmq-1.rabbitmq-peers rabbit@rabbitmq-2.rabbitmq-peers " ]
}

log "first deploy: the three members start together"
for i in 0 1 2; do start_member rabbitmq "$i"; done
wait_for 600 "every member running and clustered (readiness probe)" all_ready
for i in 0 1 2; do wait_for 60 "rabbitmq-$i lists 3 running nodes" three_running "$i"; done

password=$(tr '\0' '\n' <"$work/kit/rabbitmq/0/env" | sed -n 's/^RABBITMQ_DEFAULT_PASS=//p')
in_member rabbitmq 1 rabbitmqctl -q authenticate_user admin "$password" >/dev/null ||
  fail "the admin user does not authenticate with the password from the Secret"
log "ok: admin authenticates with the generated password"

log "rabbitmq-0 crashes (SIGKILL) and restarts"
kill_member rabbitmq 0 KILL
start_member rabbitmq 0
wait_for 600 "rabbitmq-0 ready again" ready 0
for i in 0 1 2; do wait_for 60 "rabbitmq-$i lists 3 running nodes" three_running "$i"; done

log "rabbitmq-1's server dies (SIGKILL) while its pod stays: the kubelet restarts the container"
crash_container rabbitmq 1
wait_for 600 "rabbitmq-1 ready again" ready 1
for i in 0 1 2; do wait_for 60 "rabbitmq-$i lists 3 running nodes" three_running "$i"; done

log "full-cluster restart: every member stops cleanly (0, 1, then 2), all start again together"
for i in 0 1 2; do kill_member rabbitmq "$i" TERM; done
for i in 0 1 2; do start_member rabbitmq "$i"; done
wait_for 600 "every member running and clustered again" all_ready
for i in 0 1 2; do wait_for 60 "rabbitmq-$i lists 3 running nodes" three_running "$i"; done
log "PASS"
