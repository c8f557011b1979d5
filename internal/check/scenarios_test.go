package check_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// The scenarios of issue 6, each on its own namespace of the shared API
// server: deploy the "deployed" manifests as the deployer, snapshot, let
// other managers act, then check the pull request's manifests.

func TestScenarioDrift(t *testing.T) {
	s := newScenario(t, "drift")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	// kubectl scale deployment web --replicas=5
	s.patch(deploymentRef("s1-drift", "web"), []byte(`{"spec":{"replicas":5}}`), "application/merge-patch+json", "kubectl", false, "scale")

	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (drift fails by default); stderr: %s", code, stderr)
	}
	f := onlyFinding(t, rep, "Deployment", "web", model.Drift, ".spec.replicas")
	if f.Row != 13 || !hasManager(f.Managers, "kubectl", "Update", "scale") {
		t.Errorf("drift finding = %+v, want row 13 naming kubectl (Update, scale)", f)
	}
	if !jsonEqual(f.LiveValue, 5) || !jsonEqual(f.DesiredValue, 3) || !jsonEqual(f.DeployedValue, 3) {
		t.Errorf("values deployed=%v live=%v desired=%v, want 3, 5, 3", f.DeployedValue, f.LiveValue, f.DesiredValue)
	}
	if !rep.Snapshot.Found || rep.Objects[0].Baseline != "snapshot" {
		t.Errorf("snapshot not used: %+v", rep.Snapshot)
	}
	checkGolden(t, "drift", rep)
}

func TestScenarioSharedOwnershipIsSilent(t *testing.T) {
	s := newScenario(t, "shared")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	s.apply("other", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "s2-shared"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": "nginx:1.25"}},
		}}},
	}, false)

	code, rep, stderr := s.check("pr")
	if code != 0 {
		t.Fatalf("exit %d, want 0; stderr: %s\n%s", code, stderr, dump(rep))
	}
	for _, o := range rep.Objects {
		if len(o.Findings) != 0 {
			t.Errorf("%s/%s: findings %+v, want none (row 12: shared ownership, equal value)", o.Kind, o.Name, o.Findings)
		}
	}
}

func TestScenarioTakingConflict(t *testing.T) {
	s := newScenario(t, "taking-conflict")
	s.deploy("deployed", "ignore-replicas.yaml")
	s.snapshot("deployed", "ignore-replicas.yaml")
	s.apply("hpa", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "s3-taking"},
		"spec":     map[string]any{"replicas": 4},
	}, false)

	// The pull request drops the ignore rule: the deploy now sends replicas.
	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, stderr)
	}
	f := onlyFinding(t, rep, "Deployment", "web", model.TakingConflict, ".spec.replicas")
	if f.Row != 7 || !hasManager(f.Managers, "hpa", "Apply", "") {
		t.Errorf("taking-conflict = %+v, want row 7 naming hpa", f)
	}
}

func TestScenarioUpdateConflict(t *testing.T) {
	s := newScenario(t, "update-conflict")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	// kubectl edit: a strategic merge patch under another manager.
	s.patch(deploymentRef("s4-update", "web"),
		[]byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26"}]}}}}`),
		"application/strategic-merge-patch+json", "kubectl-edit", false, "")

	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, stderr)
	}
	f := onlyFinding(t, rep, "Deployment", "web", model.UpdateConflict, `.spec.template.spec.containers[name="app"].image`)
	if f.Row != 15 || f.DeployedValue != "nginx:1.25" || f.LiveValue != "nginx:1.26" || f.DesiredValue != "nginx:1.27" {
		t.Errorf("update-conflict = %+v, want row 15 with nginx:1.25 → 1.26 → 1.27", f)
	}
	if !hasManager(f.Managers, "kubectl-edit", "Update", "") {
		t.Errorf("managers %+v do not name kubectl-edit", f.Managers)
	}
}

func TestScenarioReleaseRetainedAndReset(t *testing.T) {
	s := newScenario(t, "release")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	s.apply("labeler", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "s5-release", "labels": map[string]any{"team": "payments"}},
	}, false)

	code, rep, stderr := s.check("pr", "--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (release is a note); stderr: %s\n%s", code, stderr, dump(rep))
	}
	onlyFinding(t, rep, "Deployment", "web", model.Release, ".metadata.labels.team")
	onlyFinding(t, rep, "Deployment", "web", model.Release, ".spec.replicas")
	ret := onlyFinding(t, rep, "Deployment", "web", model.Retained, ".metadata.labels.team")
	if !hasManager(ret.Managers, "labeler", "Apply", "") {
		t.Errorf("retained = %+v, want labeler named", ret)
	}
	onlyFinding(t, rep, "Deployment", "web", model.Reset, ".spec.replicas")
	if n := len(findings(rep, "Deployment", "web", model.Reset)); n != 1 {
		t.Errorf("%d reset findings, want only .spec.replicas", n)
	}
	// --fail-on reset turns the same report red.
	if code, _, _ := s.check("pr", "--fail-on", "reset"); code != 1 {
		t.Errorf("--fail-on reset: exit %d, want 1", code)
	}
}

func TestScenarioSplitOwnership(t *testing.T) {
	s := newScenario(t, "split-ownership")
	ctx := ctxTimeout(t)
	// Seed 004: another client created the object with a full initContainer…
	s.deploy("namespace-only.yaml", "")
	created := readObject(t, s.path("created-by-go-http-client.yaml"))
	res, err := s.client.Resource(created.GroupVersionKind(), "s6-split")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctx, created, metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatal(err)
	}
	// …then the deploy took over only the fields it sends.
	s.deploy("deployed", "")
	s.snapshot("deployed", "")

	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dump(rep))
	}
	split := onlyFinding(t, rep, "Deployment", "web", model.SplitOwnership, `.spec.template.spec.initContainers[name="base-os-bash"]`)
	owners := map[string]bool{}
	for _, o := range split.Owners {
		owners[o.Manager.Manager] = true
	}
	if !owners["Go-http-client"] || !owners[deployer] {
		t.Errorf("split owners %+v, want Go-http-client and deployer", split.Owners)
	}
	if !strings.Contains(split.Message, "ownership-check migrate") {
		t.Errorf("split message does not give the remedy: %s", split.Message)
	}
	errs := findings(rep, "Deployment", "web", model.DryRunError)
	if len(errs) != 1 || errs[0].Reason != "Invalid" || !strings.Contains(errs[0].Message, "Required value") ||
		!strings.Contains(errs[0].Message, "Go-http-client") {
		t.Fatalf("dry-run-error = %+v, want Invalid 'Required value' naming Go-http-client", errs)
	}
	checkGolden(t, "split-ownership", rep)
}

func TestScenarioNewNamespaceAndCRD(t *testing.T) {
	s := newScenario(t, "new-namespace-crd")
	code, rep, stderr := s.check("pr")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (new objects are notes); stderr: %s\n%s", code, stderr, dump(rep))
	}
	for _, want := range []struct{ kind, name, blockedBy string }{
		{"Namespace", "s7-shop", ""},
		{"ConfigMap", "settings", "Namespace/s7-shop"},
		{"CustomResourceDefinition", "widgets.example.com", ""},
		{"Widget", "gadget", "CustomResourceDefinition/widgets.example.com"},
	} {
		fs := findings(rep, want.kind, want.name, model.New)
		if len(fs) != 1 {
			t.Errorf("%s/%s: %d new findings, want 1\n%s", want.kind, want.name, len(fs), dump(rep))
			continue
		}
		if want.blockedBy != "" && !strings.Contains(fs[0].Message, "until "+want.blockedBy+" exists") {
			t.Errorf("%s/%s: message %q does not explain the wait for %s", want.kind, want.name, fs[0].Message, want.blockedBy)
		}
		if errs := findings(rep, want.kind, want.name, model.DryRunError); len(errs) != 0 {
			t.Errorf("%s/%s: dry-run-error %+v, want none", want.kind, want.name, errs)
		}
	}
	if rep.Snapshot.Found {
		t.Error("snapshot found in an empty repository")
	}
}

func TestScenarioForbiddenKind(t *testing.T) {
	s := newScenario(t, "rbac")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	ctx := ctxTimeout(t)
	checker, err := cluster.ServiceAccountConfig(ctx, "s8-rbac", "checker")
	if err != nil {
		t.Fatal(err)
	}
	// The checker may read and dry-run Deployments and Namespaces, not ConfigMaps.
	grantDeploymentsAndNamespaces(t, "s8-checker", "s8-rbac", "checker")

	code, rep, stderr := s.checkAs(serviceAccountKubeconfig(t, checker), "deployed")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s", code, stderr)
	}
	errs := findings(rep, "ConfigMap", "settings", model.DryRunError)
	if len(errs) != 1 || errs[0].Reason != "Forbidden" {
		t.Fatalf("ConfigMap: dry-run-error %+v, want Forbidden\n%s", errs, dump(rep))
	}
	for _, kind := range []string{"Deployment", "Namespace"} {
		for _, o := range rep.Objects {
			if o.Kind == kind && len(o.Findings) != 0 {
				t.Errorf("%s/%s: findings %+v, want it checked clean", o.Kind, o.Name, o.Findings)
			}
		}
	}
	if !rep.Failed {
		t.Error("report not failed with an unchecked object")
	}
}

func TestScenarioUnreachable(t *testing.T) {
	s := newScenario(t, "drift")
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: gone, context: {cluster: gone, user: u}}]
current-context: gone
`), 0o600); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := s.run("check", s.path("pr"), "--field-manager", deployer,
		"--kubeconfig", kubeconfig, "--snapshot-repo", s.repo, "--output", "json")
	if code != 2 {
		t.Fatalf("exit %d, want 2; stderr: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("printed a report although nothing was checked:\n%s", stdout)
	}
	if !strings.Contains(stderr, "127.0.0.1:1") {
		t.Errorf("stderr does not say which server failed: %s", stderr)
	}
}

func deploymentRef(ns, name string) map[string]any {
	return map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": name, "namespace": ns}}
}

func readObject(t *testing.T, path string) *unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &u.Object); err != nil {
		t.Fatal(err)
	}
	return u
}

func jsonEqual(got any, want any) bool {
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	return string(a) == string(b)
}

var _ = schema.GroupVersionKind{}

// Issue 46: a field an overlay's patch sets is fixed in that patch, at the
// line that sets it (a strategic-merge patch, a JSON 6902 patch); a field
// no patch sets, in the base's file.
func TestScenarioRemedyNamesTheOverlaysPatch(t *testing.T) {
	s := newScenario(t, "patched-overlay")
	s.deploy("overlays/prod", "")
	web := deploymentRef("s46-patched", "web")
	s.patch(web, []byte(`{"spec":{"replicas":5,"minReadySeconds":10}}`), "application/merge-patch+json", "kubectl-edit", false, "")
	s.patch(web, []byte(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26"}]}}}}`),
		"application/strategic-merge-patch+json", "kubectl-edit", false, "")

	code, rep, stderr := s.check("overlays/prod")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	for path, want := range map[string]string{
		".spec.replicas": "overlays/prod/replicas-patch.yaml:7",
		".spec.template.spec.containers[name=\"app\"].image": "overlays/prod/image-patch.yaml:2",
		".spec.minReadySeconds":                              "base/app.yaml",
	} {
		var found bool
		for _, f := range object(rep, "Deployment", "web").Findings {
			if f.Path != path || f.Remediation == "" {
				continue
			}
			found = true
			// Sources are named as the path was given; the line, or its
			// absence, ends the name.
			if !regexp.MustCompile(`/` + regexp.QuoteMeta(want) + `([^:0-9]|$)`).MatchString(f.Remediation) {
				t.Errorf("%s: %s remedy does not name %s:\n%s", path, f.Category, want, f.Remediation)
			}
		}
		if !found {
			t.Errorf("%s: no finding with a remedy:\n%s", path, dump(rep))
		}
	}
}
