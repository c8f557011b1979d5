package report

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./internal/report -run %s -update` to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the output; if the change is intended, run `go test ./internal/report -run %s -update` and review the diff.\n--- got:\n%s", path, t.Name(), got)
	}
}
