package delivery

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Helm decides its client-side merge per release: an object Helm v4.0.0
// created with a plain create (only helm's Update) in a release applied
// server-side is not merged (helm/helm#31516); the same object of a
// release Helm 3 made is. Other deployers decide per object.
func TestMergesClientSidePerRelease(t *testing.T) {
	update := []metav1.ManagedFieldsEntry{{Manager: "helm", Operation: metav1.ManagedFieldsOperationUpdate}}
	apply := []metav1.ManagedFieldsEntry{{Manager: "helm", Operation: metav1.ManagedFieldsOperationApply}}
	helm := ApplyMethod{Method: ApplyServerSide, Resolve: ResolveHelm}
	for _, c := range []struct {
		name    string
		m       ApplyMethod
		release [][]metav1.ManagedFieldsEntry
		want    bool
	}{
		{"helm 3 release", helm, [][]metav1.ManagedFieldsEntry{update, update}, true},
		{"server-side release, object created by update", helm, [][]metav1.ManagedFieldsEntry{apply, update}, false},
		{"config's server-side=true, server-side release", ApplyMethod{Method: ApplyServerSide, PerRelease: true}, [][]metav1.ManagedFieldsEntry{apply, update}, false},
		{"kubectl --server-side: per object", ApplyMethod{Method: ApplyServerSide}, [][]metav1.ManagedFieldsEntry{apply, update}, true},
	} {
		m := ResolveApply(c.m, c.release, "helm")
		if got := m.MergesClientSide(update, "helm"); got != c.want {
			t.Errorf("%s: merges the Update-only object: %v, want %v (%+v)", c.name, got, c.want, m)
		}
		if m.MergesClientSide(apply, "helm") {
			t.Errorf("%s: merges an object applied server-side", c.name)
		}
	}
}
