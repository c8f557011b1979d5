// Package gitops finds the targets a GitOps repository deploys, from the
// deployer's own objects: every Flux Kustomization under a config's
// `discover: [{flux: DIR}]`, every Argo CD Application (and every
// Application an ApplicationSet's generators make) under `{argocd: DIR}`.
// Each becomes a Target with the controller's object (model.Deployer) that
// render reads to render it as the controller does, or the reason it is not
// checked. It reads files only: no cluster, no network, no git.
package gitops
