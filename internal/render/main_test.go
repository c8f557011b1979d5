package render

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/render/golden")

var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }

// repoRoot is where the fixtures' paths (testdata/render/...) resolve and
// what Source is relative to, as when the tool runs in a checkout.
const repoRoot = "../.."

func inRepoRoot(t *testing.T) {
	t.Helper()
	t.Chdir(repoRoot)
}

// checkGolden compares got with a golden file (relative to the repository
// root), or rewrites it with -update.
func checkGolden(t *testing.T, path string, got []byte, test string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (create it with: go test ./internal/render -run '%s' -update)", err, test)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("output differs from %s; if the change is intended, refresh it with: go test ./internal/render -run '%s' -update\n--- got:\n%s", path, test, got)
	}
}

func writeFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
