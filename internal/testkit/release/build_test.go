package release

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
)

const buildVersion = "v0.0.0-test"

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
	buildLog  []byte
)

// releaseBuild runs hack/release-build.sh, as `make release-local` and the
// release workflow do, for this machine's target only (the others differ in
// GOOS/GOARCH alone), once per test binary.
func releaseBuild(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a release binary: not in -short mode")
	}
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "ownership-check-release-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("bash", filepath.Join(repoRoot(t), "hack", "release-build.sh"),
			buildVersion, buildDir, runtime.GOOS+"/"+runtime.GOARCH)
		buildLog, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("hack/release-build.sh: %v\n%s", buildErr, buildLog)
	}
	return buildDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

var sumLine = regexp.MustCompile(`^([0-9a-f]{64})  (ownership-check-[a-z0-9]+-[a-z0-9]+)$`)

// TestReleaseBuild: the release build writes the binary under the name the
// action downloads, a SHA256SUMS that verifies it (by Go's hash and by
// `sha256sum -c`, as the release notes tell people), and stamps the version.
func TestReleaseBuild(t *testing.T) {
	dir := releaseBuild(t)
	b, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 1 {
		t.Fatalf("SHA256SUMS has %d lines for one target:\n%s", len(lines), b)
	}
	m := sumLine.FindStringSubmatch(lines[0])
	if m == nil || m[2] != assetName() {
		t.Fatalf("SHA256SUMS line %q, want <sha256>  %s", lines[0], assetName())
	}
	bin, err := os.ReadFile(filepath.Join(dir, m[2]))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(bin); hex.EncodeToString(sum[:]) != m[1] {
		t.Errorf("%s does not match SHA256SUMS", m[2])
	}
	// The way a person verifies a download, with the tool they have
	// (scripts/install.sh accepts the same two); never skipped.
	verify := []string{"sha256sum", "-c", "SHA256SUMS"}
	if _, err := exec.LookPath("sha256sum"); err != nil {
		verify = []string{"shasum", "-a", "256", "-c", "SHA256SUMS"}
	}
	cmd := exec.Command(verify[0], verify[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), m[2]+": OK") {
		t.Errorf("%s: %v (install coreutils for sha256sum, or perl's shasum)\n%s", strings.Join(verify, " "), err, out)
	}
	out, err := exec.Command(filepath.Join(dir, m[2]), "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), buildVersion) {
		t.Errorf("version: %v: %q, want %s", err, out, buildVersion)
	}
}

// TestReleasedBinaryRunsTheAction: the composite action installs the real
// release binary from a fake release and runs it: the demo's pull request,
// offline against its snapshot bundle, fails the check on its split-owned
// item and leaves the outputs and the report where later steps find them.
func TestReleasedBinaryRunsTheAction(t *testing.T) {
	dir := releaseBuild(t)
	srv := newFakeRelease(t)
	sums, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(filepath.Join(dir, assetName()))
	if err != nil {
		t.Fatal(err)
	}
	base := "/" + testRepo + "/releases/download/" + buildVersion + "/"
	srv.files[base+"SHA256SUMS"], srv.files[base+assetName()] = sums, bin

	r := releaseRunner(t, srv, buildVersion)
	if out, err := exec.Command("cp", "-R", filepath.Join(repoRoot(t), "testdata", "demo"), filepath.Join(r.workspace, "demo")).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	res := r.run(map[string]string{
		"field-manager": "deployer", "environment": "staging", "paths": "demo/pr",
		"offline": "true", "snapshot-repo": "demo/snapshots.bundle", "comment": "off",
	})
	if res.failed != "run" {
		t.Fatalf("failed step %q, want run (exit 1: the split-owned item fails the check)", res.failed)
	}
	o := res.outputs
	if o["failed"] != "true" || o["split-ownership"] != "1" || o["engine"] != "offline" || o["report-file"] != "ownership-check-reports/staging.json" {
		t.Errorf("outputs %v", o)
	}
	var rep struct {
		Tool struct{ Version string } `json:"tool"`
	}
	if b, err := os.ReadFile(filepath.Join(r.workspace, o["report-file"])); err != nil || json.Unmarshal(b, &rep) != nil || rep.Tool.Version != buildVersion {
		t.Errorf("report file %s: %v, tool version %q", o["report-file"], err, rep.Tool.Version)
	}
	if !strings.Contains(res.log, "::warning file=demo/pr/app.yaml,") {
		t.Error("no annotation on the demo's manifest")
	}
}

// BenchmarkInstall times the install step with the real release binary
// from a local HTTP server: cold (an empty tool cache: download, verify,
// install) and cached (the tool cache's entry, digest checked again).
// docs/github-action.md quotes it.
func BenchmarkInstall(b *testing.B) {
	dir := releaseBuild(b)
	srv := newFakeRelease(b)
	sums, _ := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	bin, _ := os.ReadFile(filepath.Join(dir, assetName()))
	base := "/" + testRepo + "/releases/download/" + buildVersion + "/"
	srv.files[base+"SHA256SUMS"], srv.files[base+assetName()] = sums, bin
	b.Logf("binary: %s, %.1f MB", assetName(), float64(len(bin))/1e6)

	install := func(b *testing.B, r *runner) {
		if res := r.run(map[string]string{"field-manager": "deployer"}); res.failed != "" {
			b.Fatalf("install failed:\n%s", res.log)
		}
	}
	newInstaller := func(b *testing.B) *runner {
		r := releaseRunner(b, srv, buildVersion)
		r.stopAfter, r.quiet = "install", true
		return r
	}
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			r := newInstaller(b)
			b.StartTimer()
			install(b, r)
		}
	})
	b.Run("cached", func(b *testing.B) {
		r := newInstaller(b)
		install(b, r)
		for b.Loop() {
			install(b, r)
		}
	})
}
