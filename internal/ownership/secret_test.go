package ownership

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/secrets"
)

const (
	canary       = "canary-Zq7-never-print-me"
	lastApplied  = ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"
	passwordPath = ".data.password"
)

var lastAppliedPath = model.LastAppliedPath

// The check hands this package Secrets redacted by the same hasher that
// wrote the snapshot; findings must carry neither values nor hashes.
func TestSecretValuesNeverLeave(t *testing.T) {
	h, err := secrets.New("test-salt-0123456789", nil)
	if err != nil {
		t.Fatal(err)
	}
	annotate := func(u *unstructured.Unstructured, v string) *unstructured.Unstructured {
		u = u.DeepCopy()
		u.SetAnnotations(map[string]string{model.LastAppliedAnnotation: v})
		return u
	}
	oldCSA := `{"data":{"password":"ZHVtbXktcGFzc3dvcmQ="}}`
	newCSA := `{"data":{"password":"` + base64.StdEncoding.EncodeToString([]byte(canary)) + `"}}`

	// The repository holds a `kubectl get -o yaml` export, annotation
	// included; the deploy added a key and dropped stringData.
	desired := annotate(manifest(t, "secret"), oldCSA)
	unstructured.RemoveNestedField(desired.Object, "stringData")
	if err := unstructured.SetNestedField(desired.Object, base64.StdEncoding.EncodeToString([]byte(canary+"-new")), "data", "extra"); err != nil {
		t.Fatal(err)
	}
	applied := annotate(manifest(t, "secret"), oldCSA)
	deployed := edit(t, annotate(captured(t, "secret.live"), oldCSA)).
		own("deployer", OperationApply, lastAppliedPath).obj()
	// Since the deploy, someone put the canary in with kubectl edit, and a
	// client-side apply rewrote the annotation.
	live := edit(t, deployed).
		set(base64.StdEncoding.EncodeToString([]byte(canary)), "data", "password").
		disown("deployer", OperationApply, path(t, passwordPath)).
		own("kubectl-edit", OperationUpdate, path(t, passwordPath)).
		set(newCSA, "metadata", "annotations", model.LastAppliedAnnotation).
		disown("deployer", OperationApply, lastAppliedPath).
		own("kubectl-client-side-apply", OperationUpdate, lastAppliedPath).obj()
	predicted := edit(t, deployed).
		own("deployer", OperationApply, path(t, ".data.extra")).
		disown("deployer", OperationApply, path(t, ".stringData.token")).obj()

	r := analyze(t, Input{
		Desired: h.HashSecretValues(desired), Applied: h.HashSecretValues(applied), Deployed: h.HashSecretValues(deployed),
		Live: h.HashSecretValues(live), Predicted: h.HashSecretValues(predicted),
	})

	want := map[string]string{
		"drift " + passwordPath: "changed (value hidden) by kubectl-edit (Update); the deploy reverts it",
		"drift " + lastApplied:  "changed (value hidden) by kubectl-client-side-apply (Update); the deploy reverts it",
		"taking .data.extra":    "added",
		// The server keeps a key that came through stringData in data,
		// with no owner, when the deploy stops sending it.
		"release .data.token":  "released: no longer in the config",
		"retained .data.token": "set through stringData, which the API server never removes from data: the deploy leaves it in place, owned by no one (delete the key by hand if it must go)",
	}
	got := map[string]string{}
	for _, f := range r.Findings {
		got[string(f.Category)+" "+f.Path] = f.Message
		for _, v := range []any{f.DeployedValue, f.LiveValue, f.DesiredValue} {
			if v != nil && v != model.HiddenValue {
				t.Errorf("%s %s: value %v shown", f.Category, f.Path, v)
			}
		}
	}
	for k, m := range want {
		if got[k] != m {
			t.Errorf("%s: message %q, want %q", k, got[k], m)
		}
	}
	if len(got) != len(want) {
		t.Errorf("findings:\n%s", dump(t, r))
	}
	if f := byPath(r, model.Drift, passwordPath); len(f) != 1 || f[0].LiveValue != model.HiddenValue || f[0].DeployedValue != model.HiddenValue {
		t.Errorf("drift values: %+v", f)
	}

	out, err := json.Marshal(struct {
		R Result
		G []Group
	}{r, Aggregate(r.Findings)})
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{
		canary, base64.StdEncoding.EncodeToString([]byte(canary)), "dummy", "ZHVtbXkt",
		h.Algorithm() + ":", "sha256",
	} {
		if strings.Contains(string(out), leak) {
			t.Errorf("findings contain %q:\n%s", leak, out)
		}
	}
}

// An unchanged Secret is silent although managedFields keep f:stringData
// for a field the server folded into data.
func TestSecretUnchangedIsSilent(t *testing.T) {
	h, _ := secrets.New("test-salt-0123456789", nil)
	r := analyze(t, Input{
		Desired: h.HashSecretValues(manifest(t, "secret")), Applied: h.HashSecretValues(manifest(t, "secret")),
		Deployed: h.HashSecretValues(captured(t, "secret.live")), Live: h.HashSecretValues(captured(t, "secret.live")),
		Predicted: h.HashSecretValues(captured(t, "secret.predicted")),
	})
	if len(r.Findings) != 0 {
		t.Fatalf("unchanged Secret reported:\n%s", dump(t, r))
	}
}

// A Secret deleted out of band is one drift on the whole object; neither
// a value nor a hash goes with it.
func TestSecretDeletedOutOfBand(t *testing.T) {
	h, _ := secrets.New("test-salt-0123456789", nil)
	desired := manifest(t, "secret")
	if err := unstructured.SetNestedField(desired.Object, base64.StdEncoding.EncodeToString([]byte(canary)), "data", "password"); err != nil {
		t.Fatal(err)
	}
	r := analyze(t, Input{
		Desired: h.HashSecretValues(desired), Applied: h.HashSecretValues(manifest(t, "secret")),
		Deployed: h.HashSecretValues(captured(t, "secret.live")), Predicted: h.HashSecretValues(captured(t, "secret.predicted")),
	})
	if len(r.Findings) != 1 || r.Findings[0].Category != model.Drift || r.Findings[0].Path != model.WholeObject {
		t.Fatalf("deleted Secret:\n%s", dump(t, r))
	}
	out := dump(t, r)
	for _, leak := range []string{canary, base64.StdEncoding.EncodeToString([]byte(canary)), "ZHVtbXkt", h.Algorithm() + ":", "Value"} {
		if strings.Contains(out, leak) {
			t.Errorf("finding contains %q:\n%s", leak, out)
		}
	}
}

func TestHiddenPath(t *testing.T) {
	for p, want := range map[string]bool{
		".data.password":             true,
		".stringData.token":          true,
		".data":                      true,
		".metadata.annotations":      true,
		".metadata.annotations.team": false,
		".metadata.labels.app":       false,
		".type":                      false,
		".immutable":                 false,
	} {
		if got := model.HiddenPath(path(t, p)); got != want {
			t.Errorf("model.HiddenPath(%s) = %t", p, got)
		}
	}
	if !model.HiddenPath(lastAppliedPath) {
		t.Errorf("model.HiddenPath(%s) = false", lastAppliedPath)
	}
}
