// Package deployers holds no code: its tests perform each deployer's own
// apply on the real test API server (Helm 3 through its SDK, Helm 4's helm,
// helm-controller's forced server-side apply, kubectl's client-side apply
// as Argo CD sends it) after predicting it, and hold the prediction to what
// the deployer really did: values, owners, conflicts or their absence
// (docs/deployers-apply.md).
package deployers
