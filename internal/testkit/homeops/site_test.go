package homeops_test

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/releaseutil"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// The credentials the test's servers take, and the environment variables
// the repository's config reads them from.
const (
	registryUser, registryPassword = "home-ops", "registry-secret-7f3a"
	repoUser, repoPassword         = "charts", "charts-secret-91bc"
	registryEnv, repoEnv           = "HOMEOPS_REGISTRY_AUTH", "HOMEOPS_CHARTS_AUTH"
	helmController                 = "helm-controller"
)

// site is a home-ops repository checked out for a pull request's job,
// its charts on the test's servers, and the test API server as its
// cluster (context "home").
type site struct {
	t    testing.TB
	plan homeops.Plan
	reg  *chartserver.OCI
	http *chartserver.HTTPRepo
	git  *monorepo.Repo
	// cache is the chart cache every run of the site shares.
	cache, snapshots string
	client           *kube.Client
	// digests are what each chart's pin names: the OCI manifest's or the
	// archive's digest, by chart index.
	digests []string
	// bumped is the shared chart's next version, once bumpShared pushed
	// it, and its digest.
	bumped       homeops.Chart
	bumpedDigest string
}

func newSite(t testing.TB, releases, charts int) *site {
	t.Helper()
	var public []homeops.Chart
	for _, p := range []struct {
		name  string
		style homeops.Style
	}{{"podinfo", homeops.Podinfo}, {"metrics-server", homeops.MetricsServer}} {
		c, err := homeops.FromArchive(chartserver.Archive(t, chartserver.Chart(t, p.name)), p.style)
		if err != nil {
			t.Fatal(err)
		}
		public = append(public, c)
	}
	plan, err := homeops.NewPlan(releases, charts, public...)
	if err != nil {
		t.Fatal(err)
	}
	s := &site{
		t: t, plan: plan,
		reg:   chartserver.NewOCI(t, chartserver.OCIOptions{User: registryUser, Password: registryPassword}),
		http:  chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{User: repoUser, Password: repoPassword}),
		cache: t.TempDir(), snapshots: t.TempDir(),
	}
	for _, c := range plan.Charts {
		s.digests = append(s.digests, s.serve(c))
	}
	t.Setenv(registryEnv, registryUser+":"+registryPassword)
	t.Setenv(repoEnv, repoUser+":"+repoPassword)
	dir := t.TempDir()
	if err := homeops.Write(dir, plan, homeops.Servers{Registry: s.reg.URL(), RegistryAuthEnv: registryEnv, HelmRepository: s.http.URL(), HelmRepositoryAuthEnv: repoEnv}); err != nil {
		t.Fatal(err)
	}
	s.git = monorepo.InitRepo(t, dir)
	s.git.Git("remote", "add", "origin", "https://github.com/home-ops/home-ops.git")
	s.git.Git("checkout", "-q", "-b", "main")
	s.git.Commit("home-ops")
	if out, err := exec.Command("git", "init", "-q", s.snapshots).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	t.Chdir(dir)
	t.Setenv("HOME", t.TempDir())
	s.kubeconfig()
	return s
}

// serve puts chart c on the server its form names, its older version
// first: the pin's digest.
func (s *site) serve(c homeops.Chart) string {
	s.t.Helper()
	var older *chart.Chart
	if c.Older != nil {
		older = load(s.t, c.Older)
	}
	current := load(s.t, c.Archive)
	if c.Form == homeops.HelmRepository {
		if older != nil {
			s.http.Add(s.t, older)
		}
		return s.http.Add(s.t, current)
	}
	prefix := strings.TrimPrefix(homeops.OCIPrefix, homeops.OCIHost+"/")
	if older != nil {
		s.reg.Push(s.t, older, prefix)
	}
	return s.reg.Push(s.t, current, prefix)
}

func load(t testing.TB, archive []byte) *chart.Chart {
	t.Helper()
	c, err := loader.LoadArchive(bytes.NewReader(archive))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// kubeconfig makes the test API server the site's cluster, context
// "home", with the kinds Flux's objects need and the apps' namespaces.
func (s *site) kubeconfig() {
	t := s.t
	t.Helper()
	kc, err := clientcmd.LoadFromFile(cluster.KubeconfigFile(t))
	if err != nil {
		t.Fatal(err)
	}
	kc.Contexts["home"] = kc.Contexts[kc.CurrentContext].DeepCopy()
	kc.CurrentContext = "home"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, path); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", path)
	if s.client, err = kube.New(cluster.Config(), "default", 16); err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct{ group, version, kind string }{
		{"kustomize.toolkit.fluxcd.io", "v1", "Kustomization"},
		{"helm.toolkit.fluxcd.io", "v2", "HelmRelease"},
		{"source.toolkit.fluxcd.io", "v1", "OCIRepository"},
		{"source.toolkit.fluxcd.io", "v1", "HelmRepository"},
	} {
		s.apply(crd(k.group, k.version, k.kind), "flux")
	}
	for _, ns := range append(s.plan.Namespaces(), "flux-system") {
		s.apply(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}, "kustomize-controller")
	}
}

func crd(group, version, kind string) map[string]any {
	plural := strings.ToLower(kind) + "s"
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "singular": strings.ToLower(kind), "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": version, "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}
}

// apply applies obj server-side as manager, forcing; a new kind is
// waited for.
func (s *site) apply(obj map[string]any, manager string) {
	t := s.t
	t.Helper()
	u := &unstructured.Unstructured{Object: obj}
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	force := true
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := s.client.Resource(u.GroupVersionKind(), u.GetNamespace())
		if err == nil {
			_, err = res.Patch(context.Background(), u.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: manager, Force: &force})
		}
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("apply %s %s as %s: %v", u.GetKind(), u.GetName(), manager, err)
		}
		time.Sleep(200 * time.Millisecond)
		// Discovery is read once: a new client sees a new kind.
		if s.client, err = kube.New(cluster.Config(), "default", 16); err != nil {
			t.Fatal(err)
		}
	}
}

// helmRelease is Helm's own render of release r (the SDK's client-only
// install of the chart the release resolves to, with its values, name and
// namespace) with what helm-controller adds to every object: Helm's
// release annotations and managed-by label, Flux's two labels.
func (s *site) helmRelease(r homeops.Release, archive []byte) []map[string]any {
	t := s.t
	t.Helper()
	i := action.NewInstall(&action.Configuration{})
	i.DryRun, i.ClientOnly, i.Replace = true, true, true
	i.ReleaseName, i.Namespace = r.Name, r.Namespace
	kv, err := chartutil.ParseKubeVersion("v1.33.0")
	if err != nil {
		t.Fatal(err)
	}
	i.KubeVersion = kv
	vals := map[string]any{}
	if r.Values != nil {
		vals = maps.Clone(r.Values)
	}
	rel, err := i.Run(load(t, archive), vals)
	if err != nil {
		t.Fatalf("%s: helm's install: %v", r.Target(), err)
	}
	var out []map[string]any
	for _, m := range releaseutil.SplitManifests(rel.Manifest) {
		var obj map[string]any
		// SplitManifests trims each document; Helm's client reads it
		// followed by its line break, which a block scalar at its end keeps.
		if err := yaml.Unmarshal([]byte(m+"\n"), &obj); err != nil {
			t.Fatal(err)
		}
		if len(obj) == 0 {
			continue
		}
		u := unstructured.Unstructured{Object: obj}
		namespaced, err := s.client.IsNamespaced(u.GroupVersionKind())
		if err != nil {
			t.Fatal(err)
		}
		if namespaced && u.GetNamespace() == "" {
			u.SetNamespace(r.Namespace)
		}
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels["app.kubernetes.io/managed-by"] = "Helm"
		labels["helm.toolkit.fluxcd.io/name"] = r.Name
		labels["helm.toolkit.fluxcd.io/namespace"] = r.Namespace
		u.SetLabels(labels)
		ann := u.GetAnnotations()
		if ann == nil {
			ann = map[string]string{}
		}
		ann["meta.helm.sh/release-name"] = r.Name
		ann["meta.helm.sh/release-namespace"] = r.Namespace
		u.SetAnnotations(ann)
		out = append(out, u.Object)
	}
	return out
}

// deploy releases every HelmRelease as helm-controller does (Helm's
// render of it, applied server-side under helm-controller, forcing) and
// applies every Kustomization, then records the snapshot the deploy
// pipeline takes after it: what a pull request's selection reads. It
// gives each release's object count.
func (s *site) deploy() map[string]int {
	s.t.Helper()
	// The releases are Helm 3's (helmRelease): the cluster's
	// helm-controller is one that renders with Helm 3, and says so.
	s.apply(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "flux-system"}}, "flux-install")
	s.apply(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "helm-controller", "namespace": "flux-system"},
		"spec": map[string]any{"selector": map[string]any{"matchLabels": map[string]any{"app": "helm-controller"}},
			"template": map[string]any{"metadata": map[string]any{"labels": map[string]any{"app": "helm-controller"}},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "manager", "image": "ghcr.io/fluxcd/helm-controller:v1.4.3"}}}}}}, "flux-install")
	counts := map[string]int{}
	for _, r := range s.plan.Releases {
		objs := s.helmRelease(r, s.plan.Charts[r.Chart].Archive)
		for _, o := range objs {
			s.apply(o, helmController)
		}
		counts[r.Target()] = len(objs)
	}
	s.deployKustomizations()
	// The deploy pipeline's snapshot has a cache of its own: the site's
	// stays cold for the first check.
	cache := s.cache
	s.cache = s.t.TempDir()
	s.mustRun(s.t, "snapshot", "--target", "all")
	s.cache = cache
	return counts
}

// run runs the CLI in the site's checkout with its chart cache and
// snapshot repository.
func (s *site) run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	args = append(args, "--chart-cache", s.cache)
	if args[0] == "check" || args[0] == "snapshot" {
		args = append(args, "--snapshot-repo", s.snapshots)
	}
	code := cli.Run("test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// checkJSON runs check with --output json and reads its array by target.
func (s *site) checkJSON(args ...string) (int, map[string]map[string]any, string) {
	s.t.Helper()
	code, stdout, stderr := s.run(append([]string{"check", "--output", "json"}, args...)...)
	var reps []map[string]any
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil {
		s.t.Fatalf("check %v: exit %d: %v\n%s\n%s", args, code, err, stdout, stderr)
	}
	out := map[string]map[string]any{}
	for _, r := range reps {
		env, _ := r["environment"].(string)
		out[env] = r
	}
	return code, out, stderr
}

// counts are the archive downloads the servers saw: an HTTP repository's
// .tgz files and a registry's blobs, by path or repository.
func (s *site) counts() map[string]int {
	detail := map[string]int{}
	for p, n := range s.http.Counts() {
		if strings.HasSuffix(p, ".tgz") {
			detail["http "+p] = n
		}
	}
	for k, n := range s.reg.Counts() {
		if strings.HasPrefix(k, "blobs ") {
			detail["oci "+k] = n
		}
	}
	return detail
}

// downloadsSince are the archive downloads since the counts before.
func (s *site) downloadsSince(before map[string]int) map[string]int {
	since := map[string]int{}
	for k, n := range s.counts() {
		if d := n - before[k]; d != 0 {
			since[k] = d
		}
	}
	return since
}

// bumpShared is Renovate's pull request for the shared chart: its next
// version pushed, the OCIRepository's tag changed in a commit on a
// branch, checked out.
func (s *site) bumpShared(t testing.TB) {
	t.Helper()
	next, err := s.plan.Charts[0].Bump()
	if err != nil {
		t.Fatal(err)
	}
	s.bumped = next
	s.bumpedDigest = s.reg.Push(t, load(t, next.Archive), strings.TrimPrefix(homeops.OCIPrefix, homeops.OCIHost+"/"))
	s.git.Git("checkout", "-q", "-b", "renovate/app-template-"+next.Version)
	file := homeops.OCIRepositoryFile(s.plan.Using(0)[0])
	s.git.Write(file, strings.Replace(s.read(file), "tag: "+s.plan.Charts[0].Version, "tag: "+next.Version, 1))
	s.git.Commit("fix(helm): update chart app-template ( " + s.plan.Charts[0].Version + " → " + next.Version + " )")
}

func (s *site) read(rel string) string {
	s.t.Helper()
	b, err := os.ReadFile(filepath.Join(s.git.Dir, rel))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// deployKustomizations applies what each Flux Kustomization target
// renders (the app's Kustomizations, HelmReleases and OCIRepositories) as
// kustomize-controller does.
func (s *site) deployKustomizations() {
	t := s.t
	t.Helper()
	ctx := context.Background()
	for _, target := range s.list() {
		if target.FieldManager != "kustomize-controller" {
			continue
		}
		rt, paths, err := targets.Resolve(ctx, check.Target{}, target)
		if err != nil {
			t.Fatal(err)
		}
		objs, warnings, err := command.Render(ctx, rt, check.RunOptions{}, paths, check.RenderOptions{})
		if err != nil || len(warnings) > 0 {
			t.Fatalf("%s: %v %q", target.Name, err, warnings)
		}
		for _, o := range objs {
			s.apply(o.Object.Object, target.FieldManager)
		}
	}
}

// config is the site's repository config.
func (s *site) config() *config.Config {
	s.t.Helper()
	cfg, err := config.Load(filepath.Join(s.git.Dir, config.DefaultFile))
	if err != nil {
		s.t.Fatal(err)
	}
	return cfg
}

// list is the site's targets, discovered as the commands discover them.
func (s *site) list() []targets.Target {
	s.t.Helper()
	list, err := targets.List(context.Background(), s.config())
	if err != nil {
		s.t.Fatal(err)
	}
	return list
}
