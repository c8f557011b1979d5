package secrets

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const canary = "canary-Zx81-do-not-leak"

func secret() *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1",
		"kind":       "Secret",
		"metadata": map[string]any{
			"name":      "db",
			"namespace": "default",
			"labels":    map[string]any{"app": "db"},
			"annotations": map[string]any{
				model.LastAppliedAnnotation: `{"stringData":{"password":"` + canary + `"}}`,
				"team":                      "payments",
			},
		},
		"type":       "Opaque",
		"data":       map[string]any{"password": base64.StdEncoding.EncodeToString([]byte(canary))},
		"stringData": map[string]any{"password": canary, "port": int64(5432)},
	}}
}

func mustHasher(t *testing.T, key string) Hasher {
	t.Helper()
	h, err := New("0123456789abcdef", []byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestRedactHidesEveryValue(t *testing.T) {
	for _, key := range []string{"", "k3y"} {
		h := mustHasher(t, key)
		in := secret()
		out := h.HashSecretValues(in)
		b, err := json.Marshal(out.Object)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), canary) || strings.Contains(string(b), base64.StdEncoding.EncodeToString([]byte(canary))) {
			t.Fatalf("key %q: canary leaked: %s", key, b)
		}
		data := out.Object["data"].(map[string]any)
		sd := out.Object["stringData"].(map[string]any)
		if data["password"] != sd["password"] {
			t.Errorf("key %q: equal content must hash equal: data %v, stringData %v", key, data["password"], sd["password"])
		}
		if !h.IsHash(data["password"].(string)) || !h.IsHash(sd["port"].(string)) {
			t.Errorf("key %q: values are not hashes: %v %v", key, data, sd)
		}
		if !strings.HasPrefix(data["password"].(string), h.Algorithm()+":") {
			t.Errorf("key %q: prefix: %v", key, data["password"])
		}
		if got := out.GetAnnotations()["team"]; got != "payments" {
			t.Errorf("other annotations must stay: %q", got)
		}
		if !h.IsHash(out.GetAnnotations()[model.LastAppliedAnnotation]) {
			t.Errorf("last-applied not hashed: %q", out.GetAnnotations()[model.LastAppliedAnnotation])
		}
		if in.Object["stringData"].(map[string]any)["password"] != canary {
			t.Error("Redact modified its input")
		}
		if again := h.HashSecretValues(out); again.Object["data"].(map[string]any)["password"] != data["password"] {
			t.Error("redacting data twice changed it")
		}
	}
}

func TestHashDependsOnSaltAndKey(t *testing.T) {
	a := mustHasher(t, "")
	b, _ := New("another-salt-0000", nil)
	c := mustHasher(t, "k3y")
	v := []byte("s3cret")
	if a.Hash(v) == b.Hash(v) || a.Hash(v) == c.Hash(v) {
		t.Fatal("hash must depend on salt and key")
	}
	if a.Hash(v) != mustHasher(t, "").Hash(v) {
		t.Fatal("hash must be deterministic")
	}
	if a.KeyID() != "" || c.KeyID() == "" || c.KeyID() == mustHasher(t, "other").KeyID() {
		t.Fatal("KeyID")
	}
	if _, err := New("", nil); err == nil {
		t.Fatal("empty salt accepted")
	}
	if s1, s2 := NewSalt(), NewSalt(); s1 == s2 || len(s1) != 64 {
		t.Fatalf("NewSalt: %q %q", s1, s2)
	}
}

func TestRedactLeavesOtherKindsAlone(t *testing.T) {
	h := mustHasher(t, "")
	cm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "annotations": map[string]any{model.LastAppliedAnnotation: "{}"}},
		"data":     map[string]any{"k": "v"},
	}}
	out := h.HashSecretValues(cm)
	if out.Object["data"].(map[string]any)["k"] != "v" || out.GetAnnotations()[model.LastAppliedAnnotation] != "{}" {
		t.Fatalf("ConfigMap changed: %v", out.Object)
	}
	out.Object["data"].(map[string]any)["k"] = "x"
	if cm.Object["data"].(map[string]any)["k"] != "v" {
		t.Fatal("not a deep copy")
	}
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Secret",
		"metadata": map[string]any{"name": "s"}, "data": map[string]any{"k": "v"},
	}}
	if h.HashSecretValues(crd).Object["data"].(map[string]any)["k"] != "v" {
		t.Fatal("a Secret kind of another group is not a core Secret")
	}
}

// TestHashHidden: a string holding a value taken from a Secret is hashed
// wherever it is, the same string to the same hash; nothing else changes.
func TestHashHidden(t *testing.T) {
	h, err := New("salt", nil)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c"}, "data": map[string]any{"url": "https://x/?t=tk-1", "mode": "fast"},
		"list": []any{"tk-1"}}}
	got := h.HashHidden(u, []string{"tk-1"})
	data := got.Object["data"].(map[string]any)
	if data["mode"] != "fast" || data["url"] != h.Hash([]byte("https://x/?t=tk-1")) || got.Object["list"].([]any)[0] != h.Hash([]byte("tk-1")) {
		t.Errorf("hashed: %v", got.Object)
	}
	if u.Object["data"].(map[string]any)["url"] != "https://x/?t=tk-1" {
		t.Error("the original changed")
	}
	if again := h.HashHidden(got, []string{"tk-1"}); again.Object["data"].(map[string]any)["url"] != data["url"] {
		t.Error("hashing twice changes the hash")
	}
	if h.HashHidden(u, nil) != u {
		t.Error("without hidden values, a copy")
	}
}
