package model

// FluxSourceIgnoreKey is a key on a Flux Kustomization or HelmRelease
// (Deployer.Object's metadata.annotations) that carries its
// GitRepository's spec.ignore: the GitRepository is another object, so
// discovery writes what source-controller leaves out of its artifact onto
// the object it gives render, which reads no file the artifact lacks.
const FluxSourceIgnoreKey = "ownership-check.io/flux-source-ignore"

// FluxStrictSubstitutionKey is a key on a Flux Kustomization (as
// FluxSourceIgnoreKey) set to "true" when its cluster's kustomize-controller
// runs with the feature gate StrictPostBuildSubstitutions: the controller's
// setting, written by discovery from the repository config.
const FluxStrictSubstitutionKey = "ownership-check.io/flux-strict-substitution"
