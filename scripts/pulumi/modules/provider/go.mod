// Wrapper module for the Kubernetes resource provider (pulumi-resource-kubernetes).
// provider/v4 is never tagged upstream (only the root and sdk/ are), so only pseudo-versions exist;
// the one the module proxy serves is the v4.25.0 release commit. Its zip lacks the two generated
// go:embed inputs, so ./src is a copy of the module completed by the module's own generator
// (scripts/pulumi/build.sh does both).
module stackwright.local/scripts/pulumi/provider

go 1.26

require (
	github.com/pulumi/pulumi-kubernetes/provider/v4 v4.0.0-20260115033456-f47bc2d6f199
	// Upstream replaces sdk/v4 with ../sdk; the sdk/v4.25.0 tag is that tree (version strings aside).
	github.com/pulumi/pulumi-kubernetes/sdk/v4 v4.25.0
)

replace github.com/pulumi/pulumi-kubernetes/provider/v4 => ./src
