package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/migrate"
	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/render"
)

var migrateDeploymentGVK = schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}

// setUpMigrateSplit is seed 004 in namespace ns: Go-http-client created the
// Deployment with a full initContainer, then the deploy took over only the
// fields it sends.
func setUpMigrateSplit(t *testing.T, s *scenario, ns string) {
	t.Helper()
	s.deploy("namespace-only.yaml", "")
	created := readObject(t, s.path("created-by-go-http-client.yaml"))
	res, err := s.client.Resource(created.GroupVersionKind(), ns)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctxTimeout(t), created, metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatal(err)
	}
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
}

func (s *scenario) liveObject(gvk schema.GroupVersionKind, ns, name string) *unstructured.Unstructured {
	s.t.Helper()
	res, err := s.client.Resource(gvk, ns)
	if err != nil {
		s.t.Fatal(err)
	}
	u, err := res.Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		s.t.Fatal(err)
	}
	return u
}

func (s *scenario) migrate(manifests string, extra ...string) (int, string, string) {
	s.t.Helper()
	args := append([]string{"migrate", s.path(manifests), "--kubeconfig", s.kubeconfig}, extra...)
	return s.run(args...)
}

var migrateRemedy = regexp.MustCompile(`ownership-check migrate --field-manager (\S+) --scope '([^']+)'`)

func TestMigrateSplitOwnership(t *testing.T) {
	s := newScenario(t, "migrate-split")
	setUpMigrateSplit(t, s, "m1-split")
	item := `.spec.template.spec.initContainers[name="base-os-bash"]`

	code, rep, stderr := s.check("pr")
	if code != 1 {
		t.Fatalf("check before migrate: exit %d, want 1; stderr: %s", code, stderr)
	}
	split := onlyFinding(t, rep, "Deployment", "web", model.SplitOwnership, item)
	if errs := findings(rep, "Deployment", "web", model.DryRunError); len(errs) != 1 || !strings.Contains(errs[0].Message, "Required value") {
		t.Fatalf("dry-run-error = %+v, want 'Required value'", errs)
	}
	// The finding's own remedy, exactly as printed.
	m := migrateRemedy.FindStringSubmatch(split.Message)
	if m == nil {
		t.Fatalf("split message gives no migrate command: %s", split.Message)
	}
	remedyArgs := []string{"--field-manager", m[1], "--scope", m[2]}
	if m[2] != item {
		t.Fatalf("remedy scope %q, want %q", m[2], item)
	}

	before := s.liveObject(migrateDeploymentGVK, "m1-split", "web")
	code, out, errOut := s.migrate("pr", remedyArgs...)
	if code != 0 {
		t.Fatalf("migrate plan: exit %d: %s%s", code, out, errOut)
	}
	t.Logf("plan:\n%s", out)
	for _, want := range []string{"split item " + item, "Go-http-client (Update) owns", "deployer takes", "removes it whole", "run again with --apply"} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	if rv := s.liveObject(migrateDeploymentGVK, "m1-split", "web").GetResourceVersion(); rv != before.GetResourceVersion() {
		t.Fatalf("the plan changed the object (resourceVersion %s -> %s)", before.GetResourceVersion(), rv)
	}

	code, out, errOut = s.migrate("pr", append(remedyArgs, "--apply")...)
	if code != 0 || !strings.Contains(out, "migrated Deployment.apps/m1-split/web") {
		t.Fatalf("migrate --apply: exit %d:\n%s%s", code, out, errOut)
	}
	after := s.liveObject(migrateDeploymentGVK, "m1-split", "web")
	if !jsonEqual(after.Object["spec"], before.Object["spec"]) || after.GetGeneration() != before.GetGeneration() {
		t.Fatalf("migrate changed the object's spec (generation %d -> %d)", before.GetGeneration(), after.GetGeneration())
	}
	owners, err := ownership.ManagedSets(after)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range owners {
		if o.Manager.Manager == migrate.PatchManager {
			t.Errorf("the migrate patch left a managedFields entry: %+v", o.Manager)
		}
	}

	code, rep, stderr = s.check("pr")
	if code != 0 {
		t.Fatalf("check after migrate: exit %d, want 0; stderr: %s\n%s", code, stderr, dump(rep))
	}
	for _, c := range []model.Category{model.SplitOwnership, model.DryRunError} {
		if fs := findings(rep, "Deployment", "web", c); len(fs) != 0 {
			t.Errorf("after migrate: %s %+v", c, fs)
		}
	}

	// The deploy now removes the initContainer cleanly.
	s.deploy("pr", "")
	if _, found, _ := unstructured.NestedSlice(s.liveObject(migrateDeploymentGVK, "m1-split", "web").Object, "spec", "template", "spec", "initContainers"); found {
		t.Error("the deploy left initContainers behind")
	}

	// Idempotent: a second run, with or without scope, finds nothing.
	rv := s.liveObject(migrateDeploymentGVK, "m1-split", "web").GetResourceVersion()
	for _, args := range [][]string{append(remedyArgs, "--apply"), {"--field-manager", deployer, "--apply"}} {
		code, out, errOut = s.migrate("pr", args...)
		if code != 0 || !strings.Contains(out, "nothing to migrate (2 already whole") {
			t.Errorf("second migrate %v: exit %d:\n%s%s", args, code, out, errOut)
		}
	}
	if got := s.liveObject(migrateDeploymentGVK, "m1-split", "web").GetResourceVersion(); got != rv {
		t.Errorf("the second migrate wrote the object (resourceVersion %s -> %s)", rv, got)
	}
}

var migrateConfigMapGVK = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

func TestMigrateClientSideApply(t *testing.T) {
	s := newScenario(t, "migrate-csa")
	ctx := ctxTimeout(t)
	s.deploy("namespace-only.yaml", "")
	// What a client-side `kubectl apply` of a new object does: a create
	// (an Update entry) under kubectl-client-side-apply that carries the
	// manifest in the last-applied annotation.
	created := readObject(t, s.path("created-by-kubectl-client-side-apply.yaml"))
	lastApplied, err := json.Marshal(created.Object)
	if err != nil {
		t.Fatal(err)
	}
	created.SetAnnotations(map[string]string{"kubectl.kubernetes.io/last-applied-configuration": string(lastApplied)})
	res, err := s.client.Resource(migrateConfigMapGVK, "m2-csa")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctx, created, metav1.CreateOptions{FieldManager: "kubectl-client-side-apply"}); err != nil {
		t.Fatal(err)
	}
	// The pipeline moved to server-side apply.
	s.deploy("deployed", "")
	s.snapshot("deployed", "")

	// The pull request drops legacy-flag, but the client-side-apply entry
	// keeps it: it is stuck.
	_, rep, stderr := s.check("pr")
	if rep == nil {
		t.Fatalf("check: %s", stderr)
	}
	stuck := onlyFinding(t, rep, "ConfigMap", "settings", model.Retained, ".data.legacy-flag")
	if !hasManager(stuck.Managers, "kubectl-client-side-apply", "Update", "") {
		t.Fatalf("retained by %+v, want kubectl-client-side-apply", stuck.Managers)
	}

	code, out, errOut := s.migrate("pr", "--field-manager", deployer)
	if code != 0 {
		t.Fatalf("migrate plan: exit %d:\n%s%s", code, out, errOut)
	}
	t.Logf("plan:\n%s", out)
	for _, want := range []string{
		"client-side apply: kubectl-client-side-apply (Update) owns the last-applied-configuration annotation",
		".data.legacy-flag", "the next deploy removes them",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, `"true"`) || strings.Contains(out, "fast") {
		t.Errorf("the plan shows values:\n%s", out)
	}
	code, out, errOut = s.migrate("pr", "--field-manager", deployer, "--apply")
	if code != 0 || !strings.Contains(out, "migrated ConfigMap/m2-csa/settings") {
		t.Fatalf("migrate --apply: exit %d:\n%s%s", code, out, errOut)
	}
	owners, err := ownership.ManagedSets(s.liveObject(migrateConfigMapGVK, "m2-csa", "settings"))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range owners {
		if o.Manager.Manager == "kubectl-client-side-apply" {
			t.Errorf("kubectl-client-side-apply still owns %s", o.Fields)
		}
	}

	_, rep, stderr = s.check("pr")
	if rep == nil {
		t.Fatalf("check after migrate: %s", stderr)
	}
	if fs := findings(rep, "ConfigMap", "settings", model.Retained); len(fs) != 0 {
		t.Errorf("still retained after migrate: %+v", fs)
	}
	s.deploy("pr", "")
	live := s.liveObject(migrateConfigMapGVK, "m2-csa", "settings")
	if _, found, _ := unstructured.NestedString(live.Object, "data", "legacy-flag"); found {
		t.Error("the deploy left data.legacy-flag behind")
	}
	if _, found := live.GetAnnotations()["kubectl.kubernetes.io/last-applied-configuration"]; found {
		t.Error("the deploy left the last-applied annotation behind")
	}
	if code, out, _ := s.migrate("pr", "--field-manager", deployer, "--apply"); code != 0 || !strings.Contains(out, "nothing to migrate") {
		t.Errorf("second migrate: exit %d:\n%s", code, out)
	}
}

// TestMigrateConcurrentWriter: the object changes between plan and apply;
// the API server refuses the change and the object keeps the writer's
// version, untouched by migrate. A rerun plans again and succeeds.
func TestMigrateConcurrentWriter(t *testing.T) {
	s := newScenario(t, "migrate-conflict")
	setUpMigrateSplit(t, s, "m3-conflict")
	ctx := ctxTimeout(t)
	objs, err := render.Render(ctx, []string{s.path("pr")}, render.Options{Namespace: "default", Scope: s.client, Config: config.Default()})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := migrate.Make(ctx, s.client, objs, migrate.Options{FieldManager: deployer}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Pending() != 1 {
		b, _ := json.MarshalIndent(plan, "", "  ")
		t.Fatalf("pending %d, want 1:\n%s", plan.Pending(), b)
	}

	// Someone else writes the object after the plan.
	s.apply("intruder", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "m3-conflict", "labels": map[string]any{"touched": "yes"}},
	}, false)
	written := s.liveObject(migrateDeploymentGVK, "m3-conflict", "web")

	outcomes := plan.Apply(ctx, s.client)
	if len(outcomes) != 1 || outcomes[0].Err == nil {
		t.Fatalf("outcomes %+v, want one conflict", outcomes)
	}
	t.Logf("refused: %v", outcomes[0].Err)
	if err := outcomes[0].Err; !errors.Is(err, migrate.ErrChanged) || !apierrors.IsConflict(err) || !strings.HasPrefix(err.Error(), "Deployment.apps/m3-conflict/web: ") {
		t.Errorf("error %v: want a conflict naming the object", err)
	}
	now := s.liveObject(migrateDeploymentGVK, "m3-conflict", "web")
	if now.GetResourceVersion() != written.GetResourceVersion() || !jsonEqual(now.GetManagedFields(), written.GetManagedFields()) {
		t.Fatal("the refused migrate changed the object")
	}

	// A rerun plans from what is live now.
	code, out, errOut := s.migrate("pr", "--field-manager", deployer, "--apply")
	if code != 0 || !strings.Contains(out, "migrated Deployment.apps/m3-conflict/web") {
		t.Fatalf("rerun: exit %d:\n%s%s", code, out, errOut)
	}
	if v, _, _ := unstructured.NestedString(s.liveObject(migrateDeploymentGVK, "m3-conflict", "web").Object, "metadata", "labels", "touched"); v != "yes" {
		t.Error("the rerun lost the concurrent writer's label")
	}
}
