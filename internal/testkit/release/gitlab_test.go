package release

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// componentScript is the script of the GitLab CI/CD component's job
// (templates/ownership-check.yml), as its runner's shell runs it.
func componentScript(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../../../templates/ownership-check.yml")
	if err != nil {
		t.Fatal(err)
	}
	docs := strings.SplitN(string(b), "\n---\n", 2)
	if len(docs) != 2 {
		t.Fatal("the component has no job document")
	}
	var jobs map[string]struct {
		Script []string `yaml:"script"`
	}
	if err := yaml.Unmarshal([]byte(docs[1]), &jobs); err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		return strings.Join(j.Script, "\n")
	}
	t.Fatal("no job")
	return ""
}

// runComponent runs the component's script with sh in a job's
// environment, the release served by srv.
func runComponent(t *testing.T, srv *fakeRelease, version string) (string, error) {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("sh", "-c", componentScript(t))
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "TMPDIR=" + dir,
		"OWNERSHIP_CHECK_VERSION=" + version,
		"OWNERSHIP_CHECK_DOWNLOAD_URL=" + srv.URL + "/" + testRepo + "/releases/download",
		"GITHUB_WORKSPACE=" + dir, "GITHUB_OUTPUT=" + filepath.Join(dir, "out")}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// The component installs the release's binary for the job's architecture
// after its SHA-256 matched the release's SHA256SUMS, and runs `gitlab`;
// a tampered download is never run.
func TestComponentInstallsTheVerifiedRelease(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("GitLab's Linux runners: the component installs the linux binary")
	}
	srv := newFakeRelease(t)
	stub := map[string][]byte{assetName(): []byte(stubBinary)}
	srv.publish(testRepo, "v1.2.3", stub, stub)
	out, err := runComponent(t, srv, "v1.2.3")
	if err != nil || !strings.Contains(out, "stub ran: gitlab") || !strings.Contains(out, "matches the release's SHA256SUMS") {
		t.Fatalf("%v:\n%s", err, out)
	}

	srv.publish(testRepo, "v1.2.4", stub, map[string][]byte{assetName(): []byte("another binary")})
	out, err = runComponent(t, srv, "v1.2.4")
	if err == nil || strings.Contains(out, "stub ran") || !strings.Contains(out, "not run") {
		t.Fatalf("a download its SHA256SUMS does not match: %v:\n%s", err, out)
	}
	if out, err = runComponent(t, srv, "main"); err == nil || !strings.Contains(out, "not a release version") {
		t.Fatalf("version main: %v:\n%s", err, out)
	}
}
