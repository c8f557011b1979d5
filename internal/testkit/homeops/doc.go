// Package homeops writes, for tests and benchmarks, a repository modelled
// on a Flux home-ops repository (onedr0p/cluster-template, bjw-s
// home-ops): every app a Kustomization (ks.yaml) applying its app folder,
// whose HelmRelease takes its chart from an OCIRepository beside it (the
// commonest form), a shared app-template-style chart's OCIRepository, an
// HTTP HelmRepository or a HelmRepository of type oci; and the charts
// themselves, as the archives a test pushes to its chart servers.
//
// The repository names its OCI charts as oci://ghcr.io/…, as real ones
// do, and its config mirrors ghcr.io to the test's registry: the fixture
// is the same whichever port a test's servers listen on, but for the
// config and the HTTP repository's URL.
package homeops
