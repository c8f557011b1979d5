package model

// FluxSourceIgnoreKey is a key on a Flux Kustomization or HelmRelease
// (Deployer.Object's metadata.annotations) that carries its
// GitRepository's spec.ignore: the GitRepository is another object, so
// discovery writes what source-controller leaves out of its artifact onto
// the object it gives render, which reads no file the artifact lacks.
const FluxSourceIgnoreKey = "ownership-check.io/flux-source-ignore"
