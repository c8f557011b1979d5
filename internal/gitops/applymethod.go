package gitops

import (
	"fmt"
	"slices"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// How each controller applies, read from its own object
// (docs/deployers-apply.md; docs/gitops.md "How each controller
// applies"). Nothing here reads the cluster: what a controller decides at
// deploy time is left to resolve (delivery.ResolveApply).

// argoApply is how Argo CD syncs an Application of these sync options.
// Replace=true wins over ServerSideApply=true, as gitops-engine's
// applyObject checks it first.
func argoApply(opts []string) delivery.ApplyMethod {
	switch {
	case slices.Contains(opts, "Replace=true"):
		return delivery.ApplyMethod{Method: delivery.ApplyReplace,
			Why: "Argo CD syncs with Replace=true in spec.syncPolicy.syncOptions: a replace (create when the object does not exist)"}
	case slices.Contains(opts, "ServerSideApply=true"):
		return delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true,
			Why: "Argo CD syncs with ServerSideApply=true in spec.syncPolicy.syncOptions: server-side, forcing conflicts"}
	}
	return delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied,
		Why: "Argo CD's default sync: client-side (no ServerSideApply=true in spec.syncPolicy.syncOptions)"}
}

// kustomizationApply is how kustomize-controller applies, whatever its
// Kustomization says.
var kustomizationApply = delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true,
	Why: "kustomize-controller applies server-side and forces conflicts"}

// helmReleaseApply is how helm-controller upgrades a HelmRelease
// (spec.upgrade.serverSideApply, helm-controller v1.5.0 and later), and a
// note when it installs client-side, which the prediction of an install
// does not follow.
func helmReleaseApply(d document) (delivery.ApplyMethod, string, error) {
	upgrade, err := d.str("spec", "upgrade", "serverSideApply")
	if err != nil {
		return delivery.ApplyMethod{}, "", err
	}
	install, ok := field(d.obj, []string{"spec", "install", "serverSideApply"})
	note := ""
	if ok && install == false {
		note = "helm-controller installs this release client-side (spec.install.serverSideApply: false): " +
			"objects it creates at the install are recorded as an Update by helm-controller, and later upgrades with serverSideApply: auto stay client-side"
	}
	var m delivery.ApplyMethod
	switch upgrade {
	case "enabled":
		m = delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true,
			Why: "helm-controller upgrades with spec.upgrade.serverSideApply: enabled: server-side, forcing conflicts"}
	case "disabled":
		m = delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest,
			Why: "helm-controller upgrades with spec.upgrade.serverSideApply: disabled: client-side"}
	case "", "auto":
		// An install, until the release's objects say otherwise.
		m = delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true, Resolve: delivery.ResolveHelmController,
			Why: "helm-controller upgrades with spec.upgrade.serverSideApply: auto (its default) as the release was last applied"}
	default:
		return m, "", fmt.Errorf("%s: HelmRelease %s: spec.upgrade.serverSideApply: %q: helm-controller takes enabled, disabled or auto", d.where(), d.name(), upgrade)
	}
	return m, note, nil
}

// entryApply is the discover entry's `apply:` over what the target's own
// object says; a HelmRelease's client-side merge starts from its previous
// release manifest.
func entryApply(e config.Discover, t Target) delivery.ApplyMethod {
	if e.Apply == nil {
		return t.Apply
	}
	dir, controller := e.Dir()
	m := e.Apply.ApplyMethod(fmt.Sprintf("the apply: of discover entry %s: %s, over what the object says", controller, dir))
	if t.Deployer != nil && t.Deployer.Object["kind"] == "HelmRelease" {
		m = config.ForHelm(m)
	}
	return m
}
