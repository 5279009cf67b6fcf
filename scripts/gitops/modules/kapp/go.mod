// Wrapper module for the kapp CLI (carvel.dev/kapp/cmd/kapp). Upstream has no replace directives;
// the wrapper exists so the resolved tree is pinned by the go.sum committed beside it.
module stackwright.local/scripts/gitops/kapp

go 1.26

require carvel.dev/kapp v0.64.2
