package values

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// TestReaderRepository: a controller's values come from the
// repository's ConfigMaps and Secrets as written (a namespaced one first,
// else the one that sets none); a SOPS Secret is never decrypted; offline,
// what the repository lacks is not found; every Secret value read is kept
// to be hidden.
func TestReaderRepository(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("clusters/prod/vars.yaml", `apiVersion: v1
kind: ConfigMap
metadata: {name: cluster-vars, namespace: flux-system}
data: {region: eu-west-1}
---
apiVersion: v1
kind: Secret
metadata: {name: cluster-secrets}
data: {token: c2VrcmV0LXRva2Vu}
stringData: {password: hunter22}
`)
	write("clusters/prod/sops.yaml", `apiVersion: v1
kind: Secret
metadata: {name: encrypted, namespace: flux-system}
data:
  key: ENC[AES256_GCM,data:abc,type:str]
sops:
  version: 3.8.1
`)
	write("clusters/prod/notes.txt", "kind: Secret")
	write("clusters/prod/bad.yaml", "{: not yaml")
	v := New([]string{filepath.Join(dir, "clusters")}, nil)
	ctx := context.Background()

	data, where, found, err := v.Values(ctx, "ConfigMap", "flux-system", "cluster-vars", nil)
	if err != nil || !found || data["region"] != "eu-west-1" || !strings.HasSuffix(where, "vars.yaml") {
		t.Errorf("ConfigMap: %v %q %v %v", data, where, found, err)
	}
	if _, _, found, _ := v.Values(ctx, "ConfigMap", "other", "cluster-vars", nil); found {
		t.Errorf("a ConfigMap of another namespace was taken")
	}
	data, _, found, err = v.Values(ctx, "Secret", "flux-system", "cluster-secrets", nil)
	if err != nil || !found || data["token"] != "sekret-token" || data["password"] != "hunter22" {
		t.Errorf("Secret: %v %v %v", data, found, err)
	}
	if _, _, found, err := v.Values(ctx, "Secret", "flux-system", "encrypted", nil); !found || err == nil || !strings.Contains(err.Error(), "SOPS") {
		t.Errorf("SOPS Secret: %v %v", found, err)
	}
	// A check stands in for an encrypted one's values: its keys, each
	// with its placeholder, and nothing SOPS wrote.
	standIns := model.NewStandIns()
	data, _, found, err = v.Values(ctx, "Secret", "flux-system", "encrypted", standIns)
	if err != nil || !found || len(data) != 1 || data["key"] != standIns.Value(model.SecretKey{Namespace: "flux-system", Name: "encrypted", Key: "key"}) {
		t.Errorf("SOPS Secret with stand-ins: %v %v %v", data, found, err)
	}
	// A plain Secret of the repository is the pull request's own text.
	if data, _, _, _ := v.Values(ctx, "Secret", "flux-system", "cluster-secrets", standIns); data["token"] != "sekret-token" {
		t.Errorf("a repository Secret with stand-ins: %v", data)
	}
	// Offline, the repository's lack says that only the repository was
	// read: the cluster may well have it.
	if _, where, found, err := v.Values(ctx, "Secret", "flux-system", "in-cluster-only", nil); found || err != nil || where != delivery.ValuesRepositoryOnly {
		t.Errorf("offline, the repository's lack: %q %v %v", where, found, err)
	}
	// Each value and its base64 form; nothing of the ConfigMaps.
	if got := v.Hidden(); !got.Holds("sekret-token") || !got.Holds("hunter22") || got.Len() != 4 {
		t.Errorf("hidden %q", got.List())
	}
}
