package snapshot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestIndexHasher(t *testing.T) {
	salt := secrets.NewSalt()
	keyed, _ := secrets.New(salt, []byte("k1"))
	plain, _ := secrets.New(salt, nil)
	v := []byte("value")

	ix := Index{Environment: "prod", Secrets: HashingOf(keyed)}
	if _, err := ix.Hasher(nil); err == nil || !strings.Contains(err.Error(), secrets.KeyEnv) {
		t.Errorf("missing key: %v", err)
	}
	if _, err := ix.Hasher([]byte("k2")); err == nil {
		t.Error("wrong key accepted")
	}
	if h, err := ix.Hasher([]byte("k1")); err != nil || h.Hash(v) != keyed.Hash(v) {
		t.Errorf("right key: %v", err)
	}
	ix.Secrets = HashingOf(plain)
	if h, err := ix.Hasher([]byte("ignored")); err != nil || h.Hash(v) != plain.Hash(v) {
		t.Errorf("unkeyed: %v", err)
	}
	ix.Secrets.Algorithm = "md5"
	if _, err := ix.Hasher(nil); err == nil {
		t.Error("unknown algorithm accepted")
	}
}

func TestDeployedTrimsVolatileFields(t *testing.T) {
	l := live(fixtures()[0])
	d := Deployed(l, hasher(t))
	if _, ok := d.Object["status"]; ok {
		t.Error("status kept")
	}
	if d.GetResourceVersion() != "" || d.GetUID() == "" || d.GetGeneration() != 1 {
		t.Errorf("metadata: %v", d.Object["metadata"])
	}
	mf := d.GetManagedFields()
	if len(mf) != 2 || mf[0].Time == nil || mf[1].Time != nil {
		t.Errorf("managedFields: %v", mf)
	}
	if l.Object["status"] == nil || l.GetResourceVersion() == "" {
		t.Error("Deployed modified the live object")
	}
}

// TestEntryHashesValuesFromSecrets: a value the render took from a Secret
// into another kind of object is stored in neither copy of the entry.
func TestEntryHashesValuesFromSecrets(t *testing.T) {
	const token = "tk-from-a-secret-99"
	h, err := secrets.New("salt", nil)
	if err != nil {
		t.Fatal(err)
	}
	obj := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "c", "namespace": "shop"}, "data": map[string]any{"url": "https://x/?t=" + token}}}
	}
	e := NewEntry(model.Object{ID: model.IDOf(obj()), Object: obj(), HiddenValues: model.NewHidden(token)}, obj(), h)
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) {
		t.Errorf("the value is stored: %s", b)
	}
}
