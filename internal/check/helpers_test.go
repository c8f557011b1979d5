package check_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

const deployer = "deployer"

// scenario is one testdata/scenarios/<name> case on the shared API server.
type scenario struct {
	t          *testing.T
	dir        string
	kubeconfig string
	repo       string // git repository holding the snapshot branch
	client     *kube.Client
}

func newScenario(t *testing.T, name string) *scenario {
	t.Helper()
	testcluster.Require(t, cluster)
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	client, err := kube.New(cluster.Config(), "default", 8)
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return &scenario{
		t: t, dir: scenarioDir(t, root, name),
		kubeconfig: cluster.KubeconfigFile(t), repo: repo, client: client,
	}
}

func (s *scenario) path(rel string) string { return filepath.Join(s.dir, rel) }

// deploy does what a pipeline does: render with the given repository
// config, then force-apply every object as the deployer, namespaces first.
func (s *scenario) deploy(manifests, configFile string) {
	s.t.Helper()
	cfg := config.Default()
	if configFile != "" {
		var err error
		if cfg, err = config.Load(s.path(configFile)); err != nil {
			s.t.Fatal(err)
		}
	}
	ctx := context.Background()
	objs, err := render.Render(ctx, []string{s.path(manifests)}, render.Options{Namespace: "default", Scope: s.client, Config: cfg})
	if err != nil {
		s.t.Fatal(err)
	}
	for pass := 0; pass < 2; pass++ {
		for _, o := range objs {
			if (o.ID.Kind == "Namespace" || o.ID.Kind == "CustomResourceDefinition") != (pass == 0) {
				continue
			}
			s.apply(deployer, o.Object.Object, true)
		}
		s.client.ResetDiscovery()
	}
}

// apply server-side applies content as manager.
func (s *scenario) apply(manager string, content map[string]any, force bool) {
	s.t.Helper()
	data, err := json.Marshal(content)
	if err != nil {
		s.t.Fatal(err)
	}
	s.patch(content, data, "application/apply-patch+yaml", manager, force, "")
}

// patch sends a patch of the given type to the object content names.
func (s *scenario) patch(content map[string]any, body []byte, patchType, manager string, force bool, subresource string) {
	s.t.Helper()
	md := content["metadata"].(map[string]any)
	ns, _ := md["namespace"].(string)
	name := md["name"].(string)
	apiVersion, kind := content["apiVersion"].(string), content["kind"].(string)
	gv, err := parseGV(apiVersion)
	if err != nil {
		s.t.Fatal(err)
	}
	res, err := s.client.Resource(gv.WithKind(kind), ns)
	if err != nil {
		s.t.Fatal(err)
	}
	opts := metav1.PatchOptions{FieldManager: manager}
	if force {
		opts.Force = &force
	}
	var sub []string
	if subresource != "" {
		sub = []string{subresource}
	}
	if _, err := res.Patch(context.Background(), name, typesPatch(patchType), body, opts, sub...); err != nil {
		s.t.Fatalf("%s %s/%s as %s: %v", patchType, kind, name, manager, err)
	}
}

// snapshot runs `ownership-check snapshot` into the scenario's repository.
func (s *scenario) snapshot(manifests, configFile string) {
	s.t.Helper()
	args := []string{"snapshot", s.path(manifests), "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--source-commit", "0123456789abcdef0123456789abcdef01234567"}
	if configFile != "" {
		args = append(args, "--config", s.path(configFile))
	}
	code, _, stderr := s.run(args...)
	if code != 0 {
		s.t.Fatalf("snapshot exited %d: %s", code, stderr)
	}
}

// check runs `ownership-check check --output json` and decodes the report.
func (s *scenario) check(manifests string, extra ...string) (int, *report.Report, string) {
	s.t.Helper()
	return s.checkAs(s.kubeconfig, manifests, extra...)
}

func (s *scenario) checkAs(kubeconfig, manifests string, extra ...string) (int, *report.Report, string) {
	s.t.Helper()
	args := append([]string{"check", s.path(manifests), "--field-manager", deployer,
		"--kubeconfig", kubeconfig, "--snapshot-repo", s.repo, "--output", "json"}, extra...)
	code, stdout, stderr := s.run(args...)
	if code == 2 {
		return code, nil, stderr
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		s.t.Fatalf("check exited %d with a report that is not JSON: %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	return code, &rep, stderr
}

func (s *scenario) run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := cli.Run("test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// findings returns the findings of one category on one object.
func findings(rep *report.Report, kind, name string, c model.Category) []model.Finding {
	var out []model.Finding
	for _, o := range rep.Objects {
		if o.Kind != kind || o.Name != name {
			continue
		}
		for _, f := range o.Findings {
			if f.Category == c {
				out = append(out, f)
			}
		}
	}
	return out
}

// onlyFinding fails unless exactly one finding of c on kind/name has path.
func onlyFinding(t *testing.T, rep *report.Report, kind, name string, c model.Category, path string) model.Finding {
	t.Helper()
	var match []model.Finding
	for _, f := range findings(rep, kind, name, c) {
		if f.Path == path {
			match = append(match, f)
		}
	}
	if len(match) != 1 {
		t.Fatalf("want one %s finding at %s on %s/%s, got %d; report:\n%s", c, path, kind, name, len(match), dump(rep))
	}
	return match[0]
}

func hasManager(ms []model.Manager, name, op, sub string) bool {
	for _, m := range ms {
		if m.Manager == name && m.Operation == op && m.Subresource == sub {
			return true
		}
	}
	return false
}

func dump(rep *report.Report) string {
	var b strings.Builder
	_ = report.WriteJSON(&b, rep)
	return b.String()
}

// serviceAccountKubeconfig writes a kubeconfig for a non-admin identity.
func serviceAccountKubeconfig(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := testcluster.WriteKubeconfig(cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

func ctxTimeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// scenarioDir is the scenario's folder relative to the test's working
// directory, so that reports name sources the same way on every machine.
func scenarioDir(t *testing.T, root, name string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, filepath.Join(root, "testdata", "scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// grantDeploymentsAndNamespaces lets a ServiceAccount read and dry-run
// Deployments and Namespaces, and nothing else: the checker of the
// Forbidden scenarios. role names the ClusterRole and its binding.
func grantDeploymentsAndNamespaces(t *testing.T, role, namespace, serviceAccount string) {
	t.Helper()
	ctx := ctxTimeout(t)
	kc := kubernetes.NewForConfigOrDie(cluster.Config())
	verbs := []string{"get", "list", "patch", "create"}
	if _, err := kc.RbacV1().ClusterRoles().Create(ctx, &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: role},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{"apps"}, Resources: []string{"deployments"}, Verbs: verbs},
			{APIGroups: []string{""}, Resources: []string{"namespaces"}, Verbs: verbs},
		},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := kc.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: role},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: role},
		Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: serviceAccount, Namespace: namespace}},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}
