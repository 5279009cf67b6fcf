// Wrapper module for the Node.js language host. From v3.69 on it is a module of its own
// (sdk/nodejs/cmd/pulumi-language-nodejs/v3) that is never tagged, so only pseudo-versions exist
// and the module proxy serves none; up to v3.68.0 it was a package inside sdk/v3, which it serves.
module stackwright.local/scripts/pulumi/language-nodejs

go 1.26

require github.com/pulumi/pulumi/sdk/v3 v3.68.0

// From upstream sdk/go.mod at v3.68.0 (the reason `go install ...@v3.68.0` is refused).
replace golang.org/x/text => golang.org/x/text v0.3.6
