// Wrapper module for the Pulumi CLI (github.com/pulumi/pulumi/pkg/v3/cmd/pulumi).
// Upstream pkg/go.mod replaces sdk/v3 with ../sdk, so `go install ...@version` is refused;
// depending on the published pkg/v3 and sdk/v3 of one release from here resolves the same tree.
module stackwright.local/scripts/pulumi/cli

go 1.26

require (
	github.com/pulumi/pulumi/pkg/v3 v3.248.0
	github.com/pulumi/pulumi/sdk/v3 v3.248.0
)

// The only non-local replace in upstream pkg/go.mod at v3.248.0.
replace github.com/atotto/clipboard => github.com/tgummerer/clipboard v0.0.0-20241001131231-d02d263e614e
