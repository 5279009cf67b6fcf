// The real node's pod sandbox ("pause") program; no dependencies.
module stackwright.local/test/cluster/pause

go 1.26.0
