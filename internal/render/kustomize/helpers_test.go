package kustomize

import (
	"os"
	"path/filepath"
	"testing"
)

// repoRoot is where the fixtures' paths (testdata/render/...) resolve, as
// when the tool runs in a checkout.
const repoRoot = "../../.."

func inRepoRoot(t *testing.T) {
	t.Helper()
	t.Chdir(repoRoot)
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
