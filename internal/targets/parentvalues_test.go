package targets_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// monitoringRelease is the HelmRelease of flux2-monitoring-example's
// kube-prometheus-stack layout, as discovery names it.
const monitoringRelease = "HelmRelease/kube-prometheus-stack.monitoring"

// monitoringChart stands for kube-prometheus-stack: it prints the values
// the release's valuesFrom ConfigMap and its spec.values give.
func monitoringChart(t *testing.T) []byte {
	return chartserver.Tgz(t, "kube-prometheus-stack", map[string][]byte{
		"Chart.yaml":  []byte("apiVersion: v2\nname: kube-prometheus-stack\nversion: 69.8.2\n"),
		"values.yaml": []byte("kube-state-metrics: {}\nprometheus: {prometheusSpec: {}}\n"),
		"templates/values.yaml": []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-values
data:
  extraArgs: {{ index .Values "kube-state-metrics" "extraArgs" | toJson | quote }}
  retention: {{ .Values.prometheus.prometheusSpec.retention | quote }}
`),
	})
}

// TestParentGeneratedValuesFrom: flux2-monitoring-example's
// kube-prometheus-stack release takes its values from the ConfigMap its
// folder's configMapGenerator makes, hash suffix and all (its
// kustomizeconfig.yaml gives the suffixed name to valuesFrom). The
// release's render takes that ConfigMap from the render of the
// Kustomization that applies it, at the same revision: offline it is
// checked, with the repository's values; an edit of those values is what
// the head renders while the base keeps its own; and with a cluster
// there, it is never asked for the ConfigMap.
func TestParentGeneratedValuesFrom(t *testing.T) {
	// The base's tree, as the run reads it out of git.
	base := t.TempDir()
	if err := os.CopyFS(base, os.DirFS(publicTree(t, "flux2-monitoring-example"))); err != nil {
		t.Fatal(err)
	}
	r, cfg := publicCheckout(t, "flux2-monitoring-example")
	ctx := context.Background()
	locator := versionLocator{archive: monitoringChart(t)}
	find := func() targets.Target {
		t.Helper()
		ts, err := targets.ListLocated(ctx, cfg, locator)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range ts {
			if s.Name == monitoringRelease {
				return s
			}
		}
		t.Fatalf("no target %s among %d", monitoringRelease, len(ts))
		return targets.Target{}
	}
	render := func(s targets.Target) map[string]string {
		t.Helper()
		rt, paths, err := targets.Resolve(ctx, check.Target{}, s)
		if err != nil {
			t.Fatal(err)
		}
		objs, _, err := command.Render(ctx, rt, check.RunOptions{ChartLocator: locator}, paths, check.RenderOptions{ClusterOptional: true})
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		for _, o := range objs {
			if o.ID.Kind == "ConfigMap" && o.ID.Name == "kube-prometheus-stack-values" {
				data := map[string]string{}
				m, _ := o.Object.Object["data"].(map[string]any)
				for k, v := range m {
					data[k], _ = v.(string)
				}
				return data
			}
		}
		t.Fatalf("%s: no ConfigMap kube-prometheus-stack-values among %d objects", s.Name, len(objs))
		return nil
	}

	s := find()
	if !s.Checked() {
		t.Fatalf("%s: not checked: %s", s.Name, s.Reason)
	}
	suffixed := valuesFromName(t, s.Deployer)
	if !strings.HasPrefix(suffixed, "flux-kube-state-metrics-config-") {
		t.Fatalf("valuesFrom names %q, want the generated ConfigMap's suffixed name", suffixed)
	}
	ksmFile := "monitoring/controllers/kube-prometheus-stack/kube-state-metrics-config.yaml"
	if !slices.Contains(s.Inputs, ksmFile) {
		t.Errorf("inputs %v, want the generated ConfigMap's file", s.Inputs)
	}
	baseCommit := strings.TrimSpace(r.Git("rev-parse", "HEAD"))
	got := render(s)
	if got["extraArgs"] != `["--custom-resource-state-only=true"]` || got["retention"] != "24h" {
		t.Errorf("rendered values %v, want the generated ConfigMap's extraArgs and spec.values' retention", got)
	}

	// The pull request edits the generated ConfigMap's file.
	ksm := filepath.Join(r.Dir, filepath.FromSlash(ksmFile))
	data, err := os.ReadFile(ksm)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ksm, []byte(strings.Replace(string(data), "--custom-resource-state-only=true", "--custom-resource-state-only=false", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	// No record yet, in a snapshot repository of its own (the fork's
	// origin is not reachable).
	snapshots := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", snapshots).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	sel, err := targets.Select(ctx, cfg, targets.SelectOptions{ChangedFrom: baseCommit, SnapshotRepo: snapshots, SnapshotBranch: "ownership-snapshots", Charts: locator})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(sel.Targets, func(s targets.Selected) bool { return s.Name == monitoringRelease && strings.Contains(s.Why, ksmFile) }) {
		t.Errorf("selected %+v, want the release, as its values changed", sel.Targets)
	}
	s = find()
	if name := valuesFromName(t, s.Deployer); name == suffixed {
		t.Errorf("valuesFrom still names %s: the edited ConfigMap's hash suffix did not change", name)
	}
	if got := render(s); got["extraArgs"] != `["--custom-resource-state-only=false"]` {
		t.Errorf("head renders extraArgs %s, want the pull request's edit", got["extraArgs"])
	}
	rt, _, err := targets.Resolve(ctx, check.Target{}, s)
	if err != nil {
		t.Fatal(err)
	}
	atBase, _, err := rt.BaseDeployer(ctx, base)
	if err != nil || atBase == nil {
		t.Fatalf("base deployer %v, %v", atBase, err)
	}
	if name := valuesFromName(t, atBase); name != suffixed {
		t.Errorf("the base's release names %s, want its own render's %s", name, suffixed)
	}
	if v, ok := model.FindValuesSource(atBase.RenderedValues, "ConfigMap", "monitoring", suffixed); !ok || !strings.Contains(v.Data["kube-state-metrics-config.yaml"], "only=true") {
		t.Errorf("the base's values %v, want the base's own ConfigMap", v.Data)
	}

	// A cluster is there: the ConfigMap is still the render's, and no
	// request asks the cluster for it.
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		asked = append(asked, req.URL.Path)
		mu.Unlock()
		http.NotFound(w, req)
	}))
	defer srv.Close()
	kc := clientcmdapi.NewConfig()
	kc.Clusters["test"] = &clientcmdapi.Cluster{Server: srv.URL}
	kc.AuthInfos["test"] = &clientcmdapi.AuthInfo{}
	kc.Contexts["test"] = &clientcmdapi.Context{Cluster: "test", AuthInfo: "test"}
	kc.CurrentContext = "test"
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	if got := render(s); got["extraArgs"] != `["--custom-resource-state-only=false"]` {
		t.Errorf("with a cluster, extraArgs %s, want the repository's", got["extraArgs"])
	}
	mu.Lock()
	defer mu.Unlock()
	for _, p := range asked {
		if strings.Contains(p, "configmaps") {
			t.Errorf("the cluster was asked %s", p)
		}
	}
}

// valuesFromName is the name the deployer's first valuesFrom entry gives.
func valuesFromName(t *testing.T, d *delivery.Deployer) string {
	t.Helper()
	spec, _ := d.Object["spec"].(map[string]any)
	from, _ := spec["valuesFrom"].([]any)
	if len(from) == 0 {
		t.Fatalf("no valuesFrom in %v", spec)
	}
	name, _ := from[0].(map[string]any)["name"].(string)
	return name
}

// TestParentEncryptedValuesFrom: a home-ops app folder holds its
// HelmReleases and a Secret encrypted with SOPS that their valuesFrom
// read. The Secret comes from the app's render, recognised as encrypted
// and never decrypted: a valuesKey at a targetPath stands in the release
// as its placeholder, and the release is checked; a key that is a whole
// values document leaves its release not checked, the reason naming the
// Secret and the key.
func TestParentEncryptedValuesFrom(t *testing.T) {
	r := monorepo.InitRepo(t, t.TempDir())
	r.Write(config.DefaultFile, "discover:\n- flux: kubernetes/flux\n  context: home\n")
	r.Write("kubernetes/flux/cluster/ks.yaml", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: cluster-apps, namespace: flux-system}\nspec:\n  path: ./kubernetes/apps\n  sourceRef: {kind: GitRepository, name: flux-system}\n")
	r.Write("kubernetes/apps/kustomization.yaml", "resources: [./flux-system/demo.yaml, ./demo/ks.yaml]\n")
	r.Write("kubernetes/apps/flux-system/demo.yaml", "apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: demo, namespace: flux-system}\nspec:\n  url: oci://ghcr.io/example/charts/demo\n  ref: {tag: 1.0.0}\n")
	r.Write("kubernetes/apps/demo/ks.yaml", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: demo, namespace: flux-system}\nspec:\n  path: ./kubernetes/apps/demo/app\n  targetNamespace: default\n  sourceRef: {kind: GitRepository, name: flux-system}\n")
	r.Write("kubernetes/apps/demo/app/kustomization.yaml", "resources: [helmrelease.yaml, secret.sops.yaml]\n")
	release := func(name, valuesFrom string) string {
		return "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + "}\nspec:\n  chartRef: {kind: OCIRepository, name: demo, namespace: flux-system}\n  valuesFrom:\n  - " + valuesFrom + "\n"
	}
	r.Write("kubernetes/apps/demo/app/helmrelease.yaml", release("token", "{kind: Secret, name: demo-values, valuesKey: token, targetPath: auth.token}")+"---\n"+release("whole", "{kind: Secret, name: demo-values}"))
	r.Write("kubernetes/apps/demo/app/secret.sops.yaml", `apiVersion: v1
kind: Secret
metadata:
  name: demo-values
stringData:
  token: ENC[AES256_GCM,data:c2VjcmV0,iv:aXY=,tag:dGFn,type:str]
  values.yaml: ENC[AES256_GCM,data:YXV0aDoge3Rva2VuOiB4fQ==,iv:aXY=,tag:dGFn,type:str]
sops:
  age:
  - recipient: age1example
    enc: ENCRYPTED
  lastmodified: "2026-01-01T00:00:00Z"
  mac: ENC[AES256_GCM,data:bWFj,iv:aXY=,tag:dGFn,type:str]
  version: 3.9.0
`)
	r.Git("checkout", "-q", "-b", "main")
	r.Commit("demo")
	t.Chdir(r.Dir)
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	cfg, err := config.Load(config.DefaultFile)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	locator := versionLocator{archive: chartserver.Tgz(t, "demo", map[string][]byte{
		"Chart.yaml":  []byte("apiVersion: v2\nname: demo\nversion: 1.0.0\n"),
		"values.yaml": []byte("auth: {token: none}\n"),
		"templates/auth.yaml": []byte(`apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}-auth
data:
  token: {{ .Values.auth.token | quote }}
`),
	})}
	ts, err := targets.ListLocated(ctx, cfg, locator)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]targets.Target{}
	for _, s := range ts {
		byName[s.Name] = s
	}
	render := func(name string) ([]model.Object, error) {
		t.Helper()
		s, ok := byName[name]
		if !ok || !s.Checked() {
			t.Fatalf("%s: listed %v, reason %q", name, ok, s.Reason)
		}
		rt, paths, err := targets.Resolve(ctx, check.Target{}, s)
		if err != nil {
			t.Fatal(err)
		}
		objs, _, err := command.Render(ctx, rt, check.RunOptions{ChartLocator: locator}, paths, check.RenderOptions{ClusterOptional: true})
		return objs, err
	}

	objs, err := render("HelmRelease/token.default")
	if err != nil {
		t.Fatalf("token: %v", err)
	}
	if len(objs) != 1 {
		t.Fatalf("token: %d objects, want its ConfigMap", len(objs))
	}
	token, _ := objs[0].Object.Object["data"].(map[string]any)["token"].(string)
	if token == "" || token == "none" || strings.Contains(token, "ENC[") || strings.ToLower(token) != token {
		t.Errorf("token rendered as %q, want the Secret key's placeholder", token)
	}

	_, err = render("HelmRelease/whole.default")
	if err == nil || !strings.Contains(err.Error(), "spec.valuesFrom Secret default/demo-values") || !strings.Contains(err.Error(), "key values.yaml is a whole values document") {
		t.Errorf("whole: %v, want not checked naming the Secret and its key", err)
	}
}
