package ownership

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

func entryOf(manager, op, subresource, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationType(op), Subresource: subresource,
		APIVersion: "v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(fields)}}
}

func withEntries(u *unstructured.Unstructured, es ...metav1.ManagedFieldsEntry) *unstructured.Unstructured {
	u = u.DeepCopy()
	u.SetManagedFields(es)
	return u
}

// labelled sets a label the server's side set (neither config has it),
// which the deployer's Update entry came to own on its write.
func labelled(u *unstructured.Unstructured, v string) *unstructured.Unstructured {
	u.SetLabels(map[string]string{"server": v})
	return u
}

// A ConfigMap a client-side deployer last applied with keys a, mode, old
// and gone; kubectl-edit changed mode since. The pull request drops old
// and gone, and theirs, which a hand-run kubectl apply came to own; the
// deployer's merge removes gone and theirs and keeps old, which is not in
// what it applied before (the prediction says which).
func clientSideApply(t *testing.T, m delivery.ApplyMethod) Input {
	t.Helper()
	cm := func(data string) *unstructured.Unstructured {
		return fromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: "+data+"\n")
	}
	all := `{"f:data":{".":{},"f:a":{},"f:mode":{},"f:old":{},"f:gone":{}}}`
	return Input{
		FieldManager: "helm",
		Apply:        m,
		Applied:      cm(`{a: "1", mode: "fast", old: "x", gone: "y", theirs: "z"}`),
		Deployed: withEntries(labelled(cm(`{a: "1", mode: "fast", old: "x", gone: "y", theirs: "z"}`), "a"), entryOf("helm", "Update", "", all),
			entryOf("helm", "Update", "", `{"f:metadata":{"f:labels":{".":{},"f:server":{}}}}`),
			entryOf("kubectl-client-side-apply", "Update", "", `{"f:data":{"f:theirs":{}}}`)),
		Live: withEntries(labelled(cm(`{a: "1", mode: "slow", old: "x", gone: "y", theirs: "z"}`), "b"),
			entryOf("kubectl-edit", "Update", "", `{"f:metadata":{"f:labels":{".":{},"f:server":{}}}}`),
			entryOf("helm", "Update", "", `{"f:data":{".":{},"f:a":{},"f:old":{},"f:gone":{}}}`),
			entryOf("kubectl-client-side-apply", "Update", "", `{"f:data":{"f:theirs":{}}}`),
			entryOf("kubectl-edit", "Update", "", `{"f:data":{"f:mode":{}}}`)),
		Desired: cm(`{a: "1", mode: "fast"}`),
		Predicted: withEntries(labelled(cm(`{a: "1", mode: "fast", old: "x"}`), "b"),
			entryOf("kubectl-edit", "Update", "", `{"f:metadata":{"f:labels":{".":{},"f:server":{}}}}`),
			entryOf("helm", "Update", "", `{"f:data":{".":{},"f:a":{},"f:mode":{},"f:old":{}}}`)),
	}
}

func TestClientSideApplyFindings(t *testing.T) {
	for _, m := range []delivery.ApplyMethod{
		{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest},
		{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied},
	} {
		t.Run(m.String(), func(t *testing.T) {
			res, err := Analyze(clientSideApply(t, m))
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][]model.Finding{}
			for _, f := range res.Findings {
				switch f.Category {
				case model.Drift, model.TakingConflict, model.UpdateConflict, model.Anomaly, model.Retained:
					t.Errorf("%s on %s under a client-side apply: %s", f.Category, f.Path, f.Message)
				}
				got[f.Path] = append(got[f.Path], f)
			}
			mode := got[".data.mode"]
			if len(mode) != 1 || mode[0].Category != model.Taking || len(mode[0].Managers) != 1 || mode[0].Managers[0].Manager != "kubectl-edit" {
				t.Fatalf(".data.mode: %+v, want one taking naming kubectl-edit", mode)
			}
			if want := `taken back from kubectl-edit (Update): a client-side apply meets no conflict and reverts it silently (changed from "slow" to "fast")`; mode[0].Message != want {
				t.Errorf(".data.mode message\n got %q\nwant %q", mode[0].Message, want)
			}
			gone := got[".data.gone"]
			if len(gone) != 2 || gone[0].Category != model.Reset && gone[1].Category != model.Reset {
				t.Errorf(".data.gone: %+v, want a release and a reset", gone)
			}
			old := got[".data.old"]
			if len(old) != 1 || old[0].Category != model.Release || !strings.Contains(old[0].Message, `stays ("x"): a client-side apply removes only what it applied before, and it is not in `+originalWords(m)) {
				t.Errorf(".data.old: %+v, want one release that says it stays", old)
			}
			theirs := got[".data.theirs"]
			if len(theirs) != 2 || theirs[0].Category != model.Reset || len(theirs[0].Managers) != 1 || theirs[0].Managers[0].Manager != "kubectl-client-side-apply" {
				t.Errorf(".data.theirs: %+v, want a release and a reset naming its co-owner", theirs)
			}
			if len(got[".metadata.labels.server"]) != 0 {
				t.Errorf("a field the config never sent, which the deploy's Update owned: %+v", got[".metadata.labels.server"])
			}
			if len(got[".data.a"]) != 0 {
				t.Errorf(".data.a, unchanged, has findings: %+v", got[".data.a"])
			}
		})
	}
}

// The same object under the default method: the Update entry is not the
// deploy's own, so nothing of the client-side reading applies.
func TestMethodTableDefaultIsServerSide(t *testing.T) {
	for _, m := range []delivery.ApplyMethod{{}, delivery.DefaultApply(), {Method: delivery.ApplyServerSide}} {
		r := rulesOf(m)
		if r.ownUpdate || r.takesBack || r.byPrediction || !r.shares {
			t.Errorf("%+v reads as %+v, want the server-side row", m, r)
		}
		if r.owns(model.Manager{Manager: "helm", Operation: OperationUpdate}, "helm") {
			t.Errorf("%+v: an Update is the deploy's own entry", m)
		}
	}
	for _, c := range []model.Category{model.Drift, model.TakingConflict, model.UpdateConflict} {
		if got := rulesOf(delivery.ApplyMethod{Method: delivery.ApplyClientSide}).category(c); got != model.Taking {
			t.Errorf("client-side %s reads as %s, want taking", c, got)
		}
		if got := rulesOf(delivery.ApplyMethod{}).category(c); got != c {
			t.Errorf("server-side %s reads as %s", c, got)
		}
	}
}

// A replace removes what it does not send, whoever else owns it.
func TestReplaceRemovesWhatItDoesNotSend(t *testing.T) {
	in := clientSideApply(t, delivery.ApplyMethod{Method: delivery.ApplyReplace})
	in.Predicted = withEntries(fromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {a: \"1\", mode: fast}\n"),
		entryOf("helm", "Update", "", `{"f:data":{".":{},"f:a":{},"f:mode":{}}}`))
	res, err := Analyze(in)
	if err != nil {
		t.Fatal(err)
	}
	resets := 0
	for _, f := range res.Findings {
		if f.Category == model.Reset {
			resets++
			if !strings.HasSuffix(f.Message, "a replace keeps only what it sends") {
				t.Errorf("%s: %q", f.Path, f.Message)
			}
		}
	}
	if resets != 3 {
		t.Errorf("resets %d, want old, gone and theirs: %+v", resets, res.Findings)
	}
}

// helm/helm#31516: an object a client-side Helm upgrade adds is created
// as an Update, and says what that costs at the first server-side upgrade.
func TestCreatedByHelmClientSide(t *testing.T) {
	desired := fromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra, namespace: shop}\ndata: {a: \"1\"}\n")
	for _, tc := range []struct {
		m    delivery.ApplyMethod
		want bool
	}{
		{delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest}, true},
		{delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}, false},
		{delivery.ApplyMethod{Method: delivery.ApplyServerSide}, false},
		{delivery.ApplyMethod{}, false},
	} {
		res, err := Analyze(Input{FieldManager: "helm", Apply: tc.m, Desired: desired, Predicted: withEntries(desired, entryOf("helm", "Update", "", `{"f:data":{".":{},"f:a":{}}}`))})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 1 || res.Findings[0].Category != model.New {
			t.Fatalf("%s: %+v", tc.m, res.Findings)
		}
		if got := strings.Contains(res.Findings[0].Message, "helm/helm#31516"); got != tc.want {
			t.Errorf("%s: %q", tc.m, res.Findings[0].Message)
		}
	}
}

// A first check (no snapshot) of a client-side deploy that sends the value
// another manager holds: an Update leaves that owner be, so nothing is
// adopted as a server-side apply would share it.
func TestClientSideAdoptsNothing(t *testing.T) {
	cm := fromYAML(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: shop}\ndata: {mode: fast}\n")
	edit := entryOf("kubectl-edit", "Update", "", `{"f:data":{".":{},"f:mode":{}}}`)
	for _, tc := range []struct {
		m    delivery.ApplyMethod
		want int
	}{{delivery.ApplyMethod{}, 1}, {delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}, 0}} {
		mine := entryOf("argocd-controller", "Apply", "", `{"f:data":{"f:mode":{}}}`)
		if tc.m.Method == delivery.ApplyClientSide {
			mine = entryOf("argocd-controller", "Update", "", `{"f:metadata":{"f:annotations":{}}}`)
		}
		res, err := Analyze(Input{FieldManager: "argocd-controller", Apply: tc.m, Desired: cm, Live: withEntries(cm, edit), Predicted: withEntries(cm, edit, mine)})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Adopted) != tc.want {
			t.Errorf("%s: adopted %+v, want %d", tc.m, res.Adopted, tc.want)
		}
	}
}
