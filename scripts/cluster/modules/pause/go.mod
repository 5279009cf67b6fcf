// The real node's pod sandbox ("pause") program; no dependencies.
module stackwright.local/scripts/cluster/modules/pause

go 1.26.0
