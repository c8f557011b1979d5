package delivery

import (
	"bytes"
	"slices"

	"github.com/ownership-check/ownership-check/internal/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// ClientSideManagers names the client-side managers of an object that a
// deployer upgrades into its own Apply entry before its first server-side
// apply (client-go's csaupgrade), in managedFields order, each once:
//
//   - an Update entry on the main resource that owns the last-applied
//     annotation: client-side `kubectl apply`, whatever --field-manager it
//     ran with (`kubectl-client-side-apply` by default). kubectl ≥ 1.26's
//     `apply --server-side` finds its managers this way;
//   - the deploy's own Update entry on the main resource: what Helm 3
//     (`helm`), and older Flux and Argo CD releases, wrote under the name
//     the deployer now applies with. Helm 4 upgrades this one.
//
// Entries on a subresource (`kubectl-scale` on scale) are never upgraded:
// csaupgrade leaves them alone.
func ClientSideManagers(entries []metav1.ManagedFieldsEntry, fieldManager string) []string {
	var out []string
	for _, e := range entries {
		if e.Operation != metav1.ManagedFieldsOperationUpdate || e.Subresource != "" || slices.Contains(out, e.Manager) {
			continue
		}
		if e.Manager == fieldManager || ownsLastApplied(e) {
			out = append(out, e.Manager)
		}
	}
	return out
}

// FirstServerSideDeploy tells whether the deploy has never applied the
// object server-side: fieldManager has no Apply entry on the main
// resource. Deployers upgrade client-side managers then and only then
// (Helm 4 when the release it upgrades was applied client-side); client-side
// managers left beside the deploy's Apply entry are ones an earlier
// server-side deploy did not upgrade, and this one will not either.
func FirstServerSideDeploy(entries []metav1.ManagedFieldsEntry, fieldManager string) bool {
	for _, e := range entries {
		if e.Manager == fieldManager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == "" {
			return false
		}
	}
	return true
}

// MergesClientSide tells whether the deployer, applying as m, merges the
// client-side managers of an object with these managedFields into its own
// Apply entry before it applies: at its first server-side deploy of the
// object (FirstServerSideDeploy), and for a deployer that decides per
// release (m.PerRelease: Helm 4) only while the release was never applied
// server-side. Helm v4.0.0 created an object its upgrade added with a
// plain create, an Update entry by helm (helm/helm#31516): in a release
// applied server-side that entry is not merged, and helm's Apply conflicts
// with it on every field whose value it changes.
func (m ApplyMethod) MergesClientSide(entries []metav1.ManagedFieldsEntry, fieldManager string) bool {
	return FirstServerSideDeploy(entries, fieldManager) && !(m.PerRelease && m.ReleaseServerSide)
}

func ownsLastApplied(e metav1.ManagedFieldsEntry) bool {
	// Most entries do not name the annotation: they are not parsed.
	return e.FieldsV1 != nil && bytes.Contains(e.FieldsV1.Raw, []byte(model.LastAppliedAnnotation)) && EntryOwns(e, model.LastAppliedPath)
}

// EntryOwns tells whether the managedFields entry e owns the field p; an
// entry whose fields do not parse owns nothing.
func EntryOwns(e metav1.ManagedFieldsEntry, p fieldpath.Path) bool {
	if e.FieldsV1 == nil {
		return false
	}
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
		return false
	}
	return s.Has(p)
}

// ReasonClientSideKept marks a retained finding on a field a client-side
// manager owns that the config no longer sends, which stays because the
// deployer does not upgrade client-side managers
// (`deployer: {upgradesClientSide: false}`).
const ReasonClientSideKept = "ClientSideManagerKept"

// ReasonClientSideLeft marks the same when the deploy has applied
// server-side before and left the client-side manager in place: it is not
// the first server-side deploy, when deployers upgrade.
const ReasonClientSideLeft = "ClientSideManagerLeft"
