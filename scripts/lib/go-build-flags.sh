# shellcheck shell=bash
# The `go build` flags of every Go binary the CI builds (scripts/cluster, scripts/pulumi,
# scripts/gitops): one list, so the packages they share compile once into the one build cache.
# Two compile jobs (2-core machines: more only adds memory pressure); no paths or VCS stamps in the
# binaries; no DWARF from the compiler: every binary is linked stripped (-ldflags "-s -w"), so the
# debug information was compiled only to be thrown away (etcd 3.6.8 from an empty build cache:
# 150 CPU-s instead of 170, the binary byte-for-byte the same size; docs/test-cluster.md).
# Sourced, never executed; each script exports its own CGO_ENABLED=0 and GOTOOLCHAIN=local.
# shellcheck disable=SC2034 # used by the scripts that source this file
GO_BUILD_FLAGS=(-p 2 -trimpath -buildvcs=false -gcflags=all=-dwarf=false)
