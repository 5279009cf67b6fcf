// Wrapper module for Flux's kustomize-controller (its main package is the module root).
// Upstream go.mod carries replace directives, so `go install ...@version` is refused; requiring the
// release from here with the same non-local replaces resolves the same dependency tree.
// v1.9.6 is the newest release that builds with Go 1.26 (v1.10.x declares go 1.27.0).
module stackwright.local/scripts/gitops/kustomize-controller

go 1.26

require github.com/fluxcd/kustomize-controller v1.9.6

// The non-local replaces of upstream go.mod at v1.9.6.
replace (
	github.com/opencontainers/go-digest => github.com/opencontainers/go-digest v1.0.1-0.20220411205349-bde1400a84be
	gopkg.in/yaml.v3 => gopkg.in/yaml.v3 v3.0.1
	sigs.k8s.io/kustomize/api => sigs.k8s.io/kustomize/api v0.21.1
	sigs.k8s.io/kustomize/kyaml => sigs.k8s.io/kustomize/kyaml v0.21.1
)
