package targets

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/model"
)

// TestDiscoveryThroughAnEncryptedSubstitution: cluster-template's
// cluster-apps substitutes from a plain ConfigMap and a SOPS-encrypted
// Secret. Every child is discovered, a variable of the ConfigMap is
// resolved, and one of the Secret stands as its placeholder: a child that
// only holds it in a value is checked with it, and only the child whose
// path uses it is not checked, naming the Secret, the key and the parent.
func TestDiscoveryThroughAnEncryptedSubstitution(t *testing.T) {
	ks := func(name, path string) string {
		return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: default}\n" +
			"spec:\n  path: " + path + "\n  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n"
	}
	root := t.TempDir()
	for p, content := range map[string]string{
		"kubernetes/flux/cluster/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: cluster-apps, namespace: flux-system}
spec:
  path: ./kubernetes/apps
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
    substituteFrom:
    - {kind: ConfigMap, name: cluster-settings}
    - {kind: Secret, name: cluster-secrets}
`,
		"kubernetes/flux/cluster/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-settings, namespace: flux-system}\ndata: {CLUSTER: home}\n",
		"kubernetes/flux/cluster/secrets.sops.yaml": "apiVersion: v1\nkind: Secret\nmetadata: {name: cluster-secrets, namespace: flux-system}\n" +
			"stringData:\n  SECRET_DOMAIN: ENC[AES256_GCM,data:abc,type:str]\nsops:\n  mac: ENC[AES256_GCM,data:x,type:str]\n  version: 3.9.0\n",
		"kubernetes/apps/kustomization.yaml": "resources: [echo.yaml, per-cluster.yaml, site.yaml]\n",
		"kubernetes/apps/echo.yaml":          ks("echo", "./kubernetes/echo") + "  postBuild:\n    substitute:\n      HOST: echo.${SECRET_DOMAIN}\n",
		"kubernetes/apps/per-cluster.yaml":   ks("per-cluster", "./kubernetes/${CLUSTER}"),
		"kubernetes/apps/site.yaml":          ks("site", "./kubernetes/sites/${SECRET_DOMAIN}"),
		"kubernetes/echo/kustomization.yaml": "resources: []\n",
		"kubernetes/home/kustomization.yaml": "resources: []\n",
	} {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: root, RenderParent: parentRenderer(nil, nil)},
		[]config.Discover{{Flux: "kubernetes/flux", Context: "home"}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]gitops.Target{}
	for _, g := range found {
		got[g.Name] = g
	}
	if g, ok := got["default/per-cluster"]; !ok || !g.Checked() || strings.Join(g.Paths, ",") != "kubernetes/home" {
		t.Errorf("default/per-cluster: %+v, want checked with path kubernetes/home (its variable is the ConfigMap's)", g)
	}
	// A value made from the secret is its placeholder, which the child's
	// render substitutes and marks: checked.
	echo, ok := got["default/echo"]
	if !ok || !echo.Checked() {
		t.Fatalf("default/echo: %+v, want checked with the Secret's placeholder", echo)
	}
	if len(echo.Deployer.StandIns) != 1 || model.SecretKeys(echo.Deployer.StandIns[0].Keys) != "Secret flux-system/cluster-secrets key SECRET_DOMAIN" {
		t.Errorf("default/echo: stand-ins %+v, want spec.postBuild.substitute.HOST from cluster-secrets' SECRET_DOMAIN", echo.Deployer.StandIns)
	}
	host, _, _ := unstructured.NestedString(echo.Deployer.Object, "spec", "postBuild", "substitute", "HOST")
	if strings.Contains(host, "${") || !strings.HasPrefix(host, "echo.s") {
		t.Errorf("default/echo: HOST %q, want echo.<placeholder>", host)
	}
	site, ok := got["default/site"]
	if !ok || site.Checked() {
		t.Fatalf("default/site: %+v, want listed, not checked", site)
	}
	for _, want := range []string{"spec.path", "Secret flux-system/cluster-secrets key SECRET_DOMAIN", "flux-system/cluster-apps"} {
		if !strings.Contains(site.Reason, want) {
			t.Errorf("default/site: reason %q does not name %s", site.Reason, want)
		}
	}
	if len(found) != 4 {
		t.Errorf("%d targets, want cluster-apps and its three children", len(found))
	}
}

// TestDiscoveryThroughAClusterSecret: a substituteFrom Secret that is
// only in the cluster, which discovery never reads, stands as the
// placeholders of the variables nothing else sets, as one encrypted in
// the repository does: its child that takes a value from it is checked,
// naming that Secret's key, while what the parent sets itself stays.
func TestDiscoveryThroughAClusterSecret(t *testing.T) {
	ks := func(name, host string) string {
		return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: " + name + ", namespace: default}\n" +
			"spec:\n  path: ./kubernetes/echo\n  sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n" +
			"  postBuild:\n    substitute:\n      HOST: " + host + "\n"
	}
	root := t.TempDir()
	for p, content := range map[string]string{
		"kubernetes/flux/cluster/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: cluster-apps, namespace: flux-system}
spec:
  path: ./kubernetes/apps
  sourceRef: {kind: GitRepository, name: flux-system}
  postBuild:
    substitute: {ZONE: home}
    substituteFrom:
    - {kind: ConfigMap, name: cluster-settings}
    - {kind: Secret, name: cluster-secrets}
`,
		"kubernetes/apps/kustomization.yaml": "resources: [echo.yaml]\n",
		"kubernetes/apps/echo.yaml":          ks("echo", "echo.${SECRET_DOMAIN}.${ZONE}"),
		"kubernetes/echo/kustomization.yaml": "resources: []\n",
	} {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: root, RenderParent: parentRenderer(nil, nil)},
		[]config.Discover{{Flux: "kubernetes/flux", Context: "home"}})
	if err != nil {
		t.Fatal(err)
	}
	var echo gitops.Target
	for _, g := range found {
		if g.Name == "default/echo" {
			echo = g
		}
	}
	if !echo.Checked() || echo.Deployer == nil {
		t.Fatalf("default/echo: %+v, want checked with the cluster Secret's placeholder", echo)
	}
	if len(echo.Deployer.StandIns) != 1 || model.SecretKeys(echo.Deployer.StandIns[0].Keys) != "Secret flux-system/cluster-secrets key SECRET_DOMAIN" {
		t.Errorf("default/echo: stand-ins %+v, want HOST from the cluster's cluster-secrets SECRET_DOMAIN", echo.Deployer.StandIns)
	}
	host, _, _ := unstructured.NestedString(echo.Deployer.Object, "spec", "postBuild", "substitute", "HOST")
	if strings.Contains(host, "${") || !strings.HasPrefix(host, "echo.s") || !strings.HasSuffix(host, ".home") {
		t.Errorf("default/echo: HOST %q, want echo.<placeholder>.home", host)
	}
}
