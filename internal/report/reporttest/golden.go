package reporttest

import (
	"os"
	"testing"
)

// Golden compares got with the file at path, or rewrites the file when
// update is set (the test's -update flag).
func Golden(t *testing.T, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test %s with -update to create it)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the output; if the change is intended, run the test %s with -update and review the diff.\n--- got:\n%s", path, t.Name(), got)
	}
}
