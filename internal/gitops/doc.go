// Package gitops finds the targets a GitOps repository deploys, from the
// deployer's own objects: every Flux Kustomization and HelmRelease under a
// config's `discover: [{flux: DIR}]`, every Argo CD Application (every
// Application an ApplicationSet's generators make, and every Application an
// app-of-apps deploys from this repository) under `{argocd: DIR}`. Each
// becomes a Target with the controller's object (delivery.Deployer) that
// render reads to render it as the controller does, or the reason it is not
// checked. It reads files only: no cluster, no network, no git.
package gitops
