package release

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// stubBinary stands in for a release binary: it records that it ran, with
// which arguments and inputs (the hyphenated INPUT_ names reach it through
// bash; dash, as /bin/sh, would drop them), and sets an output as the real
// one does.
const stubBinary = `#!/usr/bin/env bash
echo "stub ran: $* field-manager=$(printenv 'INPUT_FIELD-MANAGER') snapshot-repo=$(printenv 'INPUT_SNAPSHOT-REPO')"
echo ran >> "$GITHUB_WORKSPACE/stub-ran"
echo "failed=false" >> "$GITHUB_OUTPUT"
`

const testRepo = "acme/ownership-check"

// releaseRunner is a runner whose action is acme/ownership-check@ref,
// downloading from srv as from GitHub (GITHUB_SERVER_URL).
func releaseRunner(t testing.TB, srv *fakeRelease, ref string) *runner {
	r := newRunner(t)
	r.env["GITHUB_SERVER_URL"] = srv.URL
	r.github["action_repository"] = testRepo
	r.github["action_ref"] = ref
	return r
}

func (r *runner) stubRuns() int {
	b, err := os.ReadFile(filepath.Join(r.workspace, "stub-ran"))
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		r.t.Fatal(err)
	}
	return strings.Count(string(b), "ran\n")
}

// TestInstallAndRun: the action at a release tag installs that release's
// binary for this runner, verified and cached, and runs `action` with the
// inputs; the next run on the same runner uses the tool cache.
func TestInstallAndRun(t *testing.T) {
	srv := newFakeRelease(t)
	stub := map[string][]byte{assetName(): []byte(stubBinary)}
	srv.publish(testRepo, "v1.2.3", stub, stub)
	r := releaseRunner(t, srv, "v1.2.3")

	res := r.run(map[string]string{"field-manager": "deployer", "snapshot-repo": "../snapshots"})
	if res.failed != "" {
		t.Fatalf("step %s failed", res.failed)
	}
	if !strings.Contains(res.log, "stub ran: action field-manager=deployer snapshot-repo=../snapshots") {
		t.Error("the installed binary did not run `action` with the inputs")
	}
	if !strings.Contains(res.log, "SHA-256 ") || !strings.Contains(res.log, "matches the release's SHA256SUMS") {
		t.Error("the log does not say the checksum was verified")
	}
	if res.outputs["failed"] != "false" {
		t.Errorf("action outputs %v: the run step's outputs do not reach the action's", res.outputs)
	}
	dir := filepath.Join(r.toolCache, "ownership-check", "1.2.3", strings.ToLower(runnerArch()))
	if got := res.steps["install"]["path"]; got != filepath.Join(dir, "ownership-check") {
		t.Errorf("install path %q, want the tool cache's %s", got, dir)
	}
	if _, err := os.Stat(dir + ".complete"); err != nil {
		t.Errorf("no tool cache marker: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(r.temp, "..", filepath.Base(r.temp)+"-github-path")); err != nil || !strings.Contains(string(b), dir+"\n") {
		t.Errorf("GITHUB_PATH %q (%v): the binary's directory is not put on PATH for later steps", b, err)
	}
	if entries, _ := os.ReadDir(r.temp); len(entries) != 0 {
		t.Errorf("RUNNER_TEMP keeps %d download leftovers", len(entries))
	}

	before := srv.requestCount()
	res = r.run(map[string]string{"field-manager": "deployer"})
	if res.failed != "" || r.stubRuns() != 2 {
		t.Fatalf("second run: step %q failed, %d runs", res.failed, r.stubRuns())
	}
	if srv.requestCount() != before || !strings.Contains(res.log, "from the tool cache") {
		t.Errorf("second run downloaded again (%d requests, were %d)", srv.requestCount(), before)
	}

	// A cached binary that no longer matches its digest is replaced.
	if err := os.WriteFile(filepath.Join(dir, "ownership-check"), []byte("#!/bin/sh\necho tampered\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	res = r.run(map[string]string{"field-manager": "deployer"})
	if res.failed != "" || strings.Contains(res.log, "tampered") || !strings.Contains(res.log, "downloading it again") {
		t.Errorf("a tampered cache entry was used, or not replaced")
	}
}

// TestInstallRefusesChecksumMismatch: a binary that is not the one
// SHA256SUMS lists is refused with a clear error; nothing runs and nothing
// is cached.
func TestInstallRefusesChecksumMismatch(t *testing.T) {
	srv := newFakeRelease(t)
	srv.publish(testRepo, "v1.2.3",
		map[string][]byte{assetName(): []byte(stubBinary + "# altered\n")},
		map[string][]byte{assetName(): []byte(stubBinary)})
	r := releaseRunner(t, srv, "v1.2.3")

	res := r.run(map[string]string{"field-manager": "deployer"})
	if res.failed != "install" {
		t.Fatalf("failed step %q, want install", res.failed)
	}
	want := "::error title=ownership-check install::checksum mismatch: " + assetName() + " of release v1.2.3 has SHA-256 "
	if !strings.Contains(res.log, want) || !strings.Contains(res.log, "it was deleted and not run") {
		t.Errorf("log lacks %q", want)
	}
	if r.stubRuns() != 0 || strings.Contains(res.log, "stub ran") {
		t.Error("the refused binary ran")
	}
	if entries, _ := os.ReadDir(filepath.Join(r.toolCache, "ownership-check", "1.2.3")); len(entries) != 0 {
		t.Errorf("the tool cache holds %d entries after a refused download", len(entries))
	}
	if entries, _ := os.ReadDir(r.temp); len(entries) != 0 {
		t.Errorf("the refused download is left in RUNNER_TEMP")
	}
}

// TestInstallUnknownVersion: a version with no release fails with an error
// that names it and says what to do; nothing runs.
func TestInstallUnknownVersion(t *testing.T) {
	srv := newFakeRelease(t)
	stub := map[string][]byte{assetName(): []byte(stubBinary)}
	srv.publish(testRepo, "v1.2.3", stub, stub)
	r := releaseRunner(t, srv, "v1")

	for _, c := range []struct{ version, want string }{
		{"v9.9.9", "::error title=ownership-check install::no release v9.9.9 (from the version input): " +
			srv.URL + "/" + testRepo + "/releases/download/v9.9.9/SHA256SUMS was not found (HTTP 404). Set the version input to a published release (see " +
			srv.URL + "/" + testRepo + "/releases)"},
		{"latest", `::error title=ownership-check install::version "latest" (from the version input) is not a release version: give a full release tag such as v1.2.3`},
	} {
		res := r.run(map[string]string{"field-manager": "deployer", "version": c.version})
		if res.failed != "install" || !strings.Contains(res.log, c.want) {
			t.Errorf("version %s: failed step %q, want install with %q", c.version, res.failed, c.want)
		}
	}
	if r.stubRuns() != 0 {
		t.Error("something ran")
	}
}

// TestInstallVersion: which release the action installs. A version input
// wins; else a full release tag as the ref; else (@v1, a commit) the VERSION
// file the release workflow checked against the tag.
func TestInstallVersion(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "VERSION"))
	if err != nil {
		t.Fatal(err)
	}
	fileVersion := strings.TrimSpace(string(b))
	srv := newFakeRelease(t)
	stub := map[string][]byte{assetName(): []byte(stubBinary)}
	for _, v := range []string{"v1.2.3", "v1.3.0", fileVersion} {
		srv.publish(testRepo, v, stub, stub)
	}
	for _, c := range []struct{ ref, version, want string }{
		{"v1.2.3", "", "v1.2.3"},
		{"v1.2.3", "1.3.0", "v1.3.0"},
		{"v1", "", fileVersion},
		{"0123456789abcdef0123456789abcdef01234567", "", fileVersion},
	} {
		r := releaseRunner(t, srv, c.ref)
		res := r.run(map[string]string{"field-manager": "deployer"})
		if c.version != "" {
			res = r.run(map[string]string{"field-manager": "deployer", "version": c.version})
		}
		if res.failed != "" || res.steps["install"]["version"] != c.want {
			t.Errorf("ref %s, version %q: installed %q (failed %q), want %s", c.ref, c.version, res.steps["install"]["version"], res.failed, c.want)
		}
	}
}

// TestInstallPlatforms: the asset follows RUNNER_OS and RUNNER_ARCH, the
// download URL can be a mirror's, and unsupported runners fail clearly.
func TestInstallPlatforms(t *testing.T) {
	srv := newFakeRelease(t)
	// Shell stubs run here whatever platform they are named for.
	stub := map[string][]byte{"ownership-check-darwin-arm64": []byte(stubBinary)}
	srv.publish("mirror/tools", "v1.2.3", stub, stub)
	r := releaseRunner(t, srv, "v1.2.3")
	r.env["RUNNER_OS"], r.env["RUNNER_ARCH"] = "macOS", "ARM64"
	r.env["OWNERSHIP_CHECK_DOWNLOAD_URL"] = srv.URL + "/mirror/tools/releases/download/"
	res := r.run(map[string]string{"field-manager": "deployer"})
	if res.failed != "" || r.stubRuns() != 1 {
		t.Fatalf("macOS ARM64 from a mirror: failed step %q", res.failed)
	}
	if _, err := os.Stat(filepath.Join(r.toolCache, "ownership-check", "1.2.3", "arm64", "ownership-check")); err != nil {
		t.Errorf("not cached under arm64: %v", err)
	}

	for env, want := range map[[2]string]string{
		{"Windows", "X64"}: "Windows runners are not supported",
		{"Linux", "ARM"}:   "runner architecture ARM is not supported",
	} {
		r.env["RUNNER_OS"], r.env["RUNNER_ARCH"] = env[0], env[1]
		res := r.run(map[string]string{"field-manager": "deployer"})
		if res.failed != "install" || !strings.Contains(res.log, want) {
			t.Errorf("%v: failed step %q, want install with %q", env, res.failed, want)
		}
	}
}

// TestInstallProvenance: with the GitHub CLI on the runner and a token,
// the install asks `gh attestation verify` about the downloaded binary for
// the action's repository, runs it when the attestation holds and refuses
// it when not; the token goes with the downloads from the GitHub server.
func TestInstallProvenance(t *testing.T) {
	for _, ok := range []bool{true, false} {
		t.Run(fmt.Sprintf("attested=%v", ok), func(t *testing.T) {
			srv := newFakeRelease(t)
			stub := map[string][]byte{assetName(): []byte(stubBinary)}
			srv.publish(testRepo, "v1.2.3", stub, stub)
			r := releaseRunner(t, srv, "v1.2.3")
			bin := t.TempDir()
			calls := filepath.Join(t.TempDir(), "gh-calls")
			exit := "0"
			if !ok {
				exit = "1"
			}
			gh := "#!/bin/sh\necho \"$GH_TOKEN $*\" >> " + calls + "\n[ " + exit + " = 0 ] || echo 'no attestation found' >&2\nexit " + exit + "\n"
			if err := os.WriteFile(filepath.Join(bin, "gh"), []byte(gh), 0o755); err != nil {
				t.Fatal(err)
			}
			r.env["PATH"] = bin + string(os.PathListSeparator) + os.Getenv("PATH")
			// The fake release server is no github.com, where auto verifies.
			r.env["OWNERSHIP_CHECK_PROVENANCE"] = "require"
			res := r.run(map[string]string{"field-manager": "deployer", "github-token": "ghs_install"})
			b, _ := os.ReadFile(calls)
			if !strings.Contains(string(b), "ghs_install attestation verify ") || !strings.Contains(string(b), "--repo "+testRepo) {
				t.Errorf("gh calls %q: want attestation verify of the binary for %s with the token", b, testRepo)
			}
			if ok {
				if res.failed != "" || r.stubRuns() != 1 || !strings.Contains(res.log, "provenance verified") {
					t.Errorf("attested: failed %q, %d runs", res.failed, r.stubRuns())
				}
			} else if res.failed != "install" || r.stubRuns() != 0 || !strings.Contains(res.log, "provenance: gh attestation verify refused") {
				t.Errorf("not attested: failed %q, %d runs: want refused, not run", res.failed, r.stubRuns())
			}
			srv.mu.Lock()
			defer srv.mu.Unlock()
			for i, a := range srv.auth {
				if a != "Bearer ghs_install" {
					t.Errorf("request %s: Authorization %q, want the token (the GitHub server's own download)", srv.requests[i], a)
				}
			}
		})
	}
}
