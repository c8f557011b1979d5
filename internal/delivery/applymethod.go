package delivery

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The ways a deployer writes its objects (docs/deployers-apply.md "The
// three methods").
const (
	// ApplyServerSide is a Server-Side Apply under the deploy's field
	// manager; Force says whether conflicts are forced.
	ApplyServerSide = "server-side"
	// ApplyClientSide is a three-way merge patch (kubectl's
	// `apply`, Argo CD's default sync, Helm 3 and Helm 4's upgrade of a
	// release last applied client-side) sent as an Update under the
	// deploy's field manager: it meets no conflict, takes back a drifted
	// field it sends, and removes only what it applied before.
	ApplyClientSide = "client-side"
	// ApplyReplace is a PUT of the whole object (Argo CD's Replace=true,
	// `kubectl replace`): every field it does not send is gone.
	ApplyReplace = "replace"
)

// Where a client-side apply's three-way merge takes what the deployer
// applied before (the merge's "original"): only that can be removed.
const (
	// OriginalLastApplied is the object's
	// kubectl.kubernetes.io/last-applied-configuration annotation (kubectl,
	// Argo CD), which the apply writes again.
	OriginalLastApplied = "last-applied"
	// OriginalPreviousManifest is what the deployer applied at its last
	// deploy (Helm's previous release manifest), read from the snapshot's
	// applied config: release Secrets are never read. Without a snapshot,
	// the fields the deploy's own Update entry owns in live stand for it.
	OriginalPreviousManifest = "previous-manifest"
)

// How a method that depends on what the cluster shows is resolved, once
// per target, from the live objects' managedFields (ResolveApply).
const (
	// ResolveHelm is Helm 4's `upgrade --server-side=auto` (its default)
	// and `install`: server-side without force when the release was last
	// applied server-side (an Apply entry by the manager) or is installed
	// (no object of it exists); client-side from the previous manifest
	// when it was applied client-side (Helm 3, or Helm 4 upgrading a Helm 3
	// release: Update entries by the manager).
	ResolveHelm = "helm"
	// ResolveHelmController is Flux's helm-controller with
	// spec.upgrade.serverSideApply: auto (its default): from v1.5.0 (Flux
	// 2.8, Helm 4) it installs server-side and upgrades as the release was
	// last applied, forcing conflicts when server-side
	// (fluxcd/helm-controller#1381); before (ControllerVersion, when the
	// cluster says it), Helm 3's client-side upgrade. Its entries decide as
	// for ResolveHelm; none means an install. `enabled` and `disabled` are
	// not resolved: the HelmRelease says the method.
	ResolveHelmController = "helm-controller"
)

// ApplyMethod is how a target's deployer applies: chosen where the
// target is read (the config's `apply:`, the deployer's object: Argo CD's
// sync options, a Flux Kustomization or HelmRelease, the config's helm
// target), resolved against the cluster where the deployer decides at
// deploy time (Resolve), and said in the report with Why.
type ApplyMethod struct {
	// Method is ApplyServerSide, ApplyClientSide or ApplyReplace; "" is
	// the default (DefaultApply).
	Method string `json:"method"`
	// Force: a server-side apply forces conflicts.
	Force bool `json:"force,omitempty"`
	// Original: where a client-side apply's merge takes what was applied
	// before (OriginalLastApplied, OriginalPreviousManifest).
	Original string `json:"original,omitempty"`
	// Resolve, when set, is how Method, Force and Original are decided
	// from the cluster (ResolveHelm, ResolveHelmController); the fields
	// set with it are what holds when nothing in the cluster decides.
	Resolve string `json:"-"`
	// ControllerVersion is the deployer's version where the cluster says
	// it (helm-controller's image tag), for ResolveHelmController.
	ControllerVersion string `json:"-"`
	// PerRelease: the deployer decides its client-side merge for the
	// whole release, from how the release was last applied, not per
	// object (Helm 4, and helm-controller on its library: csaupgrade only
	// at the first server-side upgrade of a release applied
	// client-side). ReleaseServerSide, resolved from the objects'
	// managedFields (ResolveApply), says the release was applied
	// server-side before: then no object of it is merged, not even one
	// that carries no Apply entry of the manager (MergesClientSide).
	PerRelease        bool `json:"-"`
	ReleaseServerSide bool `json:"-"`
	// Why says what the method was chosen from, in the report's words:
	// "Argo CD's default sync (no ServerSideApply=true in
	// spec.syncPolicy.syncOptions)".
	Why string `json:"why,omitempty"`
}

// DefaultApply is the method of a target nothing else decides: a forced
// Server-Side Apply (kubectl apply --server-side --force-conflicts, Flux's
// kustomize-controller).
func DefaultApply() ApplyMethod {
	return ApplyMethod{Method: ApplyServerSide, Force: true,
		Why: "the default: a forced Server-Side Apply (kubectl apply --server-side --force-conflicts)"}
}

// OrDefault is m, or DefaultApply when m says nothing.
func (m ApplyMethod) OrDefault() ApplyMethod {
	if m.Method == "" && m.Resolve == "" {
		return DefaultApply()
	}
	return m
}

// ServerSide tells whether m applies server-side (the default included).
func (m ApplyMethod) ServerSide() bool { return m.Method == "" || m.Method == ApplyServerSide }

// String is the method as the report names it: "server-side, forced",
// "server-side, not forced", "client-side (three-way merge from the
// last-applied annotation)", "replace".
func (m ApplyMethod) String() string {
	switch m.Method {
	case "", ApplyServerSide:
		if m.Force || m.Method == "" {
			return "server-side, forced"
		}
		return "server-side, not forced"
	case ApplyClientSide:
		switch m.Original {
		case OriginalPreviousManifest:
			return "client-side (three-way merge from the previous release manifest)"
		default:
			return "client-side (three-way merge from the last-applied annotation)"
		}
	default:
		return m.Method
	}
}

// ResolveApply decides a method whose Resolve is set from the managedFields
// of the target's live objects (entries: one list per live object; objects
// that do not exist are left out), as the deployer decides at deploy time.
// A method without Resolve is returned as it is.
func ResolveApply(m ApplyMethod, entries [][]metav1.ManagedFieldsEntry, fieldManager string) ApplyMethod {
	switch m.Resolve {
	case ResolveHelm:
		m = resolveHelm(m, entries, fieldManager)
	case ResolveHelmController:
		m = resolveHelmController(m, entries, fieldManager)
	}
	if m.PerRelease {
		m.ReleaseServerSide = lastApplied(entries, fieldManager) == string(metav1.ManagedFieldsOperationApply)
	}
	return m
}

// NeedsResolve tells whether m is decided, in part, from the managedFields
// of the target's live objects (ResolveApply).
func (m ApplyMethod) NeedsResolve() bool { return m.Resolve != "" || m.PerRelease }

// lastApplied says how fieldManager last wrote the objects: "Apply",
// "Update", or "" when it owns nothing of them. An Apply anywhere wins:
// a release applied server-side once stays so (Helm 4 records the method
// on the release; its objects show it).
func lastApplied(entries [][]metav1.ManagedFieldsEntry, fieldManager string) string {
	seen := ""
	for _, es := range entries {
		for _, e := range es {
			if e.Manager != fieldManager || e.Subresource != "" {
				continue
			}
			if e.Operation == metav1.ManagedFieldsOperationApply {
				return string(metav1.ManagedFieldsOperationApply)
			}
			seen = string(metav1.ManagedFieldsOperationUpdate)
		}
	}
	return seen
}

func resolveHelm(m ApplyMethod, entries [][]metav1.ManagedFieldsEntry, fieldManager string) ApplyMethod {
	out := ApplyMethod{Resolve: m.Resolve, PerRelease: true}
	switch lastApplied(entries, fieldManager) {
	case string(metav1.ManagedFieldsOperationApply):
		out.Method, out.Why = ApplyServerSide,
			fmt.Sprintf("Helm 4 upgrades with --server-side=auto (its default) as the release was last applied: server-side (an Apply entry by %s), without --force-conflicts", fieldManager)
	case string(metav1.ManagedFieldsOperationUpdate):
		out.Method, out.Original, out.Why = ApplyClientSide, OriginalPreviousManifest,
			fmt.Sprintf("Helm 4 upgrades with --server-side=auto (its default) as the release was last applied: client-side (Update entries by %s, as Helm 3 writes)", fieldManager)
	default:
		out.Method, out.Why = ApplyServerSide,
			fmt.Sprintf("Helm 4 installs server-side without --force-conflicts (no object of the release is in the cluster under %s)", fieldManager)
	}
	return out
}

func resolveHelmController(m ApplyMethod, entries [][]metav1.ManagedFieldsEntry, fieldManager string) ApplyMethod {
	out := ApplyMethod{Resolve: m.Resolve, ControllerVersion: m.ControllerVersion, PerRelease: true}
	if v := m.ControllerVersion; v != "" && !HelmControllerAppliesServerSide(v) {
		out.Method, out.Original, out.Why = ApplyClientSide, OriginalPreviousManifest,
			fmt.Sprintf("helm-controller %s (before Flux 2.8, Helm 3) upgrades client-side", v)
		return out
	}
	switch lastApplied(entries, fieldManager) {
	case string(metav1.ManagedFieldsOperationUpdate):
		out.Method, out.Original, out.Why = ApplyClientSide, OriginalPreviousManifest,
			fmt.Sprintf("helm-controller upgrades with spec.upgrade.serverSideApply: auto (its default) as the release was last applied: client-side (Update entries by %s)", fieldManager)
	case string(metav1.ManagedFieldsOperationApply):
		out.Method, out.Force, out.Why = ApplyServerSide, true,
			fmt.Sprintf("helm-controller (Flux ≥ 2.8, Helm 4) upgrades with spec.upgrade.serverSideApply: auto as the release was last applied: server-side (an Apply entry by %s), forcing conflicts", fieldManager)
	default:
		out.Method, out.Force, out.Why = ApplyServerSide, true,
			"helm-controller (Flux ≥ 2.8, Helm 4) installs server-side and forces conflicts (no object of the release is in the cluster yet)"
	}
	return out
}

// HelmControllerAppliesServerSide tells whether a helm-controller release
// (its image tag, "v1.5.0") applies with Helm 4's server-side apply: the
// helm-controller of Flux 2.8 and later (v1.5.0 and later).
func HelmControllerAppliesServerSide(version string) bool {
	var major, minor int
	if _, err := fmt.Sscanf(version, "v%d.%d", &major, &minor); err != nil {
		if _, err := fmt.Sscanf(version, "%d.%d", &major, &minor); err != nil {
			return true
		}
	}
	return major > 1 || (major == 1 && minor >= 5)
}
