package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestCheckerWithoutSecrets applies deploy/rbac, the default, which gives
// the checker nothing on Secrets (kubectl auth can-i says no), and checks the
// checker scenario, which renders Secret/s9-checker/db: the Secret is a
// Forbidden dry-run-error that says what to do, and the check fails; with
// `secrets: {skip: true}` in the repository config the Secret is left out,
// named as not checked, and everything else is checked as before.
func TestCheckerWithoutSecrets(t *testing.T) {
	s := newScenario(t, "checker")
	ctx := ctxTimeout(t)
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	admin := kubernetes.NewForConfigOrDie(cluster.Config())
	// Switching from with-secrets: the Secrets binding goes (docs/rbac.md).
	_ = admin.RbacV1().ClusterRoleBindings().Delete(ctx, "ownership-check-secrets", metav1.DeleteOptions{})
	t.Cleanup(func() { s.deployPath(filepath.Join(root, "deploy", "rbac", "with-secrets")) })
	s.deployPath(filepath.Join(root, "deploy", "rbac"))
	for _, verb := range []string{"get", "list", "create", "patch"} {
		out, _ := exec.Command(testcluster.Tool(t, "kubectl"), "--kubeconfig", cluster.KubeconfigFile(t), "auth", "can-i", verb, "secrets",
			"--all-namespaces", "--as", "system:serviceaccount:"+checkerNamespace+":"+checkerName).CombinedOutput()
		if strings.TrimSpace(string(out)) != "no" {
			t.Errorf("kubectl auth can-i %s secrets as the default checker: %q, want no", verb, out)
		}
	}
	s.deployPath(s.path("deployed"))
	s.snapshot("deployed", "")

	checker, err := cluster.ServiceAccountConfig(ctx, checkerNamespace, checkerName)
	if err != nil {
		t.Fatal(err)
	}
	grantCRDGroups(ctx, t, admin, "example.org", "example.com")
	cs := kubernetes.NewForConfigOrDie(checker)
	waitDryRunOnly(ctx, t, admin, cs)
	if _, err := cs.CoreV1().Secrets("s9-checker").Get(ctx, "db", metav1.GetOptions{}); err == nil {
		t.Fatal("the no-secrets checker can read Secret/s9-checker/db")
	}
	kubeconfig := serviceAccountKubeconfig(t, checker)

	code, rep, stderr := s.checkAs(kubeconfig, "pr")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a Secret that could not be checked fails); stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	all := len(rep.Objects)
	for _, o := range rep.Objects {
		errs := findings(rep, o.Kind, o.Name, model.DryRunError)
		if o.Kind != "Secret" {
			if len(errs) != 0 {
				t.Errorf("%s/%s: %+v", o.Kind, o.Name, errs)
			}
			continue
		}
		if len(errs) != 1 || errs[0].Reason != "Forbidden" || !strings.Contains(errs[0].Message, "secrets: {skip: true}") {
			t.Errorf("Secret/%s: %+v, want a Forbidden dry-run-error saying how to skip Secrets", o.Name, errs)
		}
	}

	cfg := filepath.Join(t.TempDir(), "ownership-check.yaml")
	if err := os.WriteFile(cfg, []byte("secrets:\n  skip: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, rep, stderr = s.checkAs(kubeconfig, "pr", "--config", cfg)
	if code != 0 {
		t.Fatalf("with secrets.skip: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	for _, o := range rep.Objects {
		if o.Kind == "Secret" {
			t.Errorf("Secret/%s is in the report: %+v", o.Name, o.Findings)
		}
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "not checked: 1 Secret (Secret/s9-checker/db), as the repository config says (secrets.skip)") {
		t.Errorf("notes %q do not name the unchecked Secret", rep.Notes)
	}
	if len(rep.Objects) != all-1 {
		t.Errorf("%d objects checked, want all %d but the Secret", len(rep.Objects), all)
	}
}
