#!/usr/bin/env bash
# The API report of the package's root and of each subpath (api/*.api.md), as API Extractor writes
# it: a change to the public API shows up in review as a diff of these files.
#   bash scripts/build/api-report.sh          # CI: fails when a report differs from the declarations
#   bash scripts/build/api-report.sh --update # after a deliberate API change: rewrite the reports
# Reads the declarations `npm run build` writes to dist-lib/.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -f dist-lib/index.d.ts ] || { echo "api-report: dist-lib/index.d.ts missing; run \`npm run build\` first" >&2; exit 2; }
local_flag=()
[ "${1:-}" = "--update" ] && local_flag=(--local)
status=0
for config in api/root.json api/runtime.json api/pulumi.json api/testing.json api/constructs.json; do
  npx api-extractor run "${local_flag[@]}" -c "$config" >/tmp/api-extractor.log 2>&1 || {
    status=1
    grep -E "Warning|Error|changed" /tmp/api-extractor.log >&2 || cat /tmp/api-extractor.log >&2
  }
done
if [ "$status" -ne 0 ]; then
  echo "api-report: the public API changed; review it, then run \`bash scripts/build/api-report.sh --update\` and commit api/" >&2
fi
exit "$status"
