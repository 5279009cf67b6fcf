#!/usr/bin/env bash
# Third-party checkers on the synthesised reference cloud: kube-score (built from the Go module
# proxy) and checkov (from PyPI, in a venv), both cached outside the repository. Prints the count of
# findings per checker for the working tree and, with --baseline REF, for that commit too (a
# temporary git worktree), so a change shows as before -> after. docs/security.md lists the
# findings that remain and why each is accepted.
#
#   checkers.sh                    install what is missing, then count the findings of the working tree
#   checkers.sh --baseline REF     also count them at REF and print both
#   checkers.sh --details          also print the working tree's findings, counted per check
#   checkers.sh --background       install detached (log, pid, exit code in the cache dir)
#   checkers.sh --wait             wait for a background install and report its result
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
# shellcheck source=scripts/lib/background.sh
source "$HERE/../lib/background.sh"

KUBE_SCORE_VERSION="v1.20.0"
CHECKOV_VERSION="3.3.30"
CACHE_ROOT="${STACKWRIGHT_SECURITY_CACHE:-$HOME/.cache/stackwright/security}"
BG_NAME=security
BG_DIR="$CACHE_ROOT/kube-score-${KUBE_SCORE_VERSION}_checkov-${CHECKOV_VERSION}"
BIN_DIR="$BG_DIR/bin"
VENV="$BG_DIR/venv"

install() {
  mkdir -p "$BIN_DIR"
  if [[ ! -x "$BIN_DIR/kube-score" ]]; then
    bg_log "building kube-score $KUBE_SCORE_VERSION"
    GOBIN="$BIN_DIR" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=-mod=mod \
      nice -n 10 go install -trimpath "github.com/zegl/kube-score/cmd/kube-score@$KUBE_SCORE_VERSION"
  fi
  if [[ ! -x "$VENV/bin/checkov" ]]; then
    bg_log "installing checkov $CHECKOV_VERSION"
    python3 -m venv "$VENV"
    nice -n 10 "$VENV/bin/pip" install --quiet --disable-pip-version-check "checkov==$CHECKOV_VERSION"
  fi
}

# synth DIR OUT: the reference cloud of the tree at DIR, as one YAML file OUT.
synth() {
  local out
  out="$(mktemp -d)"
  (cd "$1" && npx cdk8s synth --check-upgrade false --output "$out" >/dev/null)
  cat "$out"/*.yaml >"$2"
  rm -rf "$out"
}

# kube_score FILE: one line per CRITICAL or WARNING finding, `[GRADE] name/namespace group/Kind: message`
# (a message per container, so an object with two containers can have the same line twice).
kube_score() {
  "$BIN_DIR/kube-score" score --output-format ci "$1" 2>/dev/null | grep -E '^\[(CRITICAL|WARNING)\]' || true
}

# checkov FILE: one line per failed check, `CHECK_ID<TAB>resource`.
checkov_findings() {
  # --soft-fail: checkov exits 1 when a check fails, which under pipefail would fail --details.
  "$VENV/bin/checkov" --quiet --compact --soft-fail --framework kubernetes -o json -f "$1" 2>/dev/null |
    "$VENV/bin/python" -c '
import json, sys
data = json.load(sys.stdin)
for report in data if isinstance(data, list) else [data]:
    for check in report.get("results", {}).get("failed_checks", []):
        print(check["check_id"] + "\t" + check["resource"])
' | sort -u
}

# count LABEL FILE: prints the two counts of the reference cloud in FILE.
count() {
  printf '%-22s kube-score %5d   checkov %5d\n' "$1" "$(kube_score "$2" | wc -l)" "$(checkov_findings "$2" | wc -l)"
}

work=""

main() {
  local baseline="" details=0
  while (($#)); do
    case "$1" in
      --background) bg_start "$0" --install-only; return ;;
      --wait) bg_wait; return ;;
      --install-only) install; return ;;
      --baseline) baseline="$2"; shift ;;
      --details) details=1 ;;
      *) bg_die "unknown option $1 (see the header of $0)" ;;
    esac
    shift
  done
  bg_wait
  install
  work="$(mktemp -d)"
  trap 'git -C "$REPO" worktree remove --force "$work/baseline" 2>/dev/null || true; rm -rf "$work"' EXIT
  if [[ -n "$baseline" ]]; then
    git -C "$REPO" worktree add --quiet --detach "$work/baseline" "$baseline"
    ln -s "$REPO/node_modules" "$work/baseline/node_modules"
    synth "$work/baseline" "$work/baseline.yaml"
    count "baseline $baseline" "$work/baseline.yaml"
  fi
  synth "$REPO" "$work/current.yaml"
  count "working tree" "$work/current.yaml"
  if ((details)); then
    echo "--- kube-score (check, object)"
    kube_score "$work/current.yaml" | sed -E 's/^\[[A-Z]+\] [^ ]+ [^ ]+: //' | sort | uniq -c | sort -rn
    echo "--- checkov (check, resource)"
    checkov_findings "$work/current.yaml" | cut -f1 | sort | uniq -c | sort -rn
  fi
}

main "$@"
