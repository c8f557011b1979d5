package check

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestValueReaderRepository: a controller's values come from the
// repository's ConfigMaps and Secrets as written (a namespaced one first,
// else the one that sets none); a SOPS Secret is never decrypted; offline,
// what the repository lacks is not found; every Secret value read is kept
// to be hidden.
func TestValueReaderRepository(t *testing.T) {
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
	v := newValueReader(Target{ValueDirs: []string{filepath.Join(dir, "clusters")}}, nil)
	ctx := context.Background()

	data, where, found, err := v.Values(ctx, "ConfigMap", "flux-system", "cluster-vars")
	if err != nil || !found || data["region"] != "eu-west-1" || !strings.HasSuffix(where, "vars.yaml") {
		t.Errorf("ConfigMap: %v %q %v %v", data, where, found, err)
	}
	if _, _, found, _ := v.Values(ctx, "ConfigMap", "other", "cluster-vars"); found {
		t.Errorf("a ConfigMap of another namespace was taken")
	}
	data, _, found, err = v.Values(ctx, "Secret", "flux-system", "cluster-secrets")
	if err != nil || !found || data["token"] != "sekret-token" || data["password"] != "hunter22" {
		t.Errorf("Secret: %v %v %v", data, found, err)
	}
	if _, _, found, err := v.Values(ctx, "Secret", "flux-system", "encrypted"); !found || err == nil || !strings.Contains(err.Error(), "SOPS") {
		t.Errorf("SOPS Secret: %v %v", found, err)
	}
	if _, _, found, err := v.Values(ctx, "Secret", "flux-system", "in-cluster-only"); found || err != nil {
		t.Errorf("offline, the repository's lack: %v %v", found, err)
	}
	if got := v.Hidden(); len(got) != 2 || got[0] != "sekret-token" || got[1] != "hunter22" {
		t.Errorf("hidden %v", got)
	}

	rep := &report.Report{Notes: []string{"substituted hunter22"}, Objects: []report.Object{{
		Findings: []model.Finding{{DesiredValue: "postgres://u:hunter22@db", LiveValue: "x", Message: "changed to postgres://u:hunter22@db"}},
		Diff:     []model.FieldChange{{After: map[string]any{"p": "hunter22"}, Before: "y"}},
	}}}
	hideRead(rep, v.Hidden())
	f, c := rep.Objects[0].Findings[0], rep.Objects[0].Diff[0]
	if f.DesiredValue != model.HiddenValue || f.LiveValue != "x" || strings.Contains(f.Message+rep.Notes[0], "hunter22") || c.After != model.HiddenValue || c.Before != "y" {
		t.Errorf("not hidden: %+v %+v %v", f, c, rep.Notes)
	}
}

// TestRenderTakesDeployer: the target's Deployer reaches render, which
// renders its paths as that controller does (no source of this build
// claims it: the error names the controller and the object's file).
func TestRenderTakesDeployer(t *testing.T) {
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, _, err := Render(context.Background(), Target{}, []string{dir})
	if err != nil || len(objs) != 1 {
		t.Fatalf("without a deployer: %v %v", objs, err)
	}
	d := &model.Deployer{Controller: "no-such-controller", File: "clusters/prod/a.yaml"}
	_, _, err = Render(context.Background(), Target{Deployer: d}, []string{dir})
	if err == nil || !strings.Contains(err.Error(), "no-such-controller") || !strings.Contains(err.Error(), "clusters/prod/a.yaml") {
		t.Errorf("with a deployer: %v", err)
	}
}
