package check_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var shBlock = regexp.MustCompile("(?ms)^```sh\n(.*?)^```")

// copyTree copies the directory src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRBACDocCommands runs every sh block of docs/rbac.md, in order, as a
// user would in a copy of the repository, with kubectl logged in to the
// test API server as its admin and a stand-in for gh that keeps the secret;
// then checks as the ServiceAccount with the kubeconfig the page made.
func TestRBACDocCommands(t *testing.T) {
	s := newScenario(t, "checker")
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "rbac.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := shBlock.FindAllStringSubmatch(string(doc), -1)
	if len(blocks) < 3 {
		t.Fatalf("docs/rbac.md has %d sh blocks: the test expects install, without Secrets and the kubeconfig", len(blocks))
	}

	work, bin, secrets := t.TempDir(), t.TempDir(), t.TempDir()
	copyTree(t, filepath.Join(root, "deploy"), filepath.Join(work, "deploy"))
	kubectl := testcluster.Tool(t, "kubectl")
	if err := os.Symlink(kubectl, filepath.Join(bin, "kubectl")); err != nil {
		t.Fatal(err)
	}
	// gh secret set NAME [--env ENV] < file
	stub := "#!/bin/sh\n[ \"$1 $2\" = \"secret set\" ] || { echo \"gh stand-in: $*\" >&2; exit 2; }\ncat > \"$GH_SECRETS/$3\"\n"
	if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(stub), 0o755); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(),
		"PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"KUBECONFIG="+cluster.KubeconfigFile(t),
		"HOME="+t.TempDir(),
		"GH_SECRETS="+secrets,
	)
	// The other tests of the package expect the role with Secrets.
	t.Cleanup(func() { s.deployPath(filepath.Join(root, "deploy", "rbac", "with-secrets")) })

	var out strings.Builder
	for i, b := range blocks {
		cmd := exec.Command("bash", "-e", "-u", "-o", "pipefail", "-c", b[1])
		cmd.Dir, cmd.Env = work, env
		got, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("docs/rbac.md sh block %d:\n%s\nfailed: %v\n%s", i+1, b[1], err, got)
		}
		out.Write(got)
	}
	if !strings.Contains(out.String(), "system:serviceaccount:ownership-check:ownership-check") {
		t.Errorf("auth whoami does not name the checker:\n%s", out.String())
	}
	kubeconfig := filepath.Join(secrets, "CHECK_KUBECONFIG")
	kc, err := os.ReadFile(kubeconfig)
	if err != nil {
		t.Fatalf("gh secret set did not get the kubeconfig: %v", err)
	}
	if strings.Contains(string(kc), "client-key-data") {
		t.Error("the checker's kubeconfig carries the admin's client key")
	}
	if entries, _ := os.ReadDir(work); len(entries) != 1 {
		t.Errorf("the page leaves files behind: %v", entries)
	}

	// The kubeconfig works for the check, as the checker without Secrets.
	s.deployPath(s.path("deployed"))
	s.snapshot("deployed", "")
	ctx := ctxTimeout(t)
	admin := kubernetes.NewForConfigOrDie(cluster.Config())
	grantCRDGroups(ctx, t, admin, "example.org", "example.com")
	checker, err := cluster.ServiceAccountConfig(ctx, checkerNamespace, checkerName)
	if err != nil {
		t.Fatal(err)
	}
	waitDryRunOnly(ctx, t, admin, kubernetes.NewForConfigOrDie(checker))
	cfg := filepath.Join(t.TempDir(), "ownership-check.yaml")
	if err := os.WriteFile(cfg, []byte("secrets:\n  skip: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, rep, stderr := s.checkAs(kubeconfig, "pr", "--config", cfg)
	if code != 0 {
		t.Fatalf("check with the page's kubeconfig: exit %d; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
}
