package testcluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindToolPrefersBinAndFallsBackOnlyOutsideCI(t *testing.T) {
	root, onPath := t.TempDir(), t.TempDir()
	writeExecutable(t, filepath.Join(onPath, "tool"))
	t.Setenv("PATH", onPath)

	if got, err := findTool(root, "tool", false); err != nil || got != filepath.Join(onPath, "tool") {
		t.Errorf("outside CI, missing from .bin: got %q, %v; want the PATH copy", got, err)
	}
	if _, err := findTool(root, "tool", true); err == nil || !strings.Contains(err.Error(), "make test-deps") {
		t.Errorf("in CI, missing from .bin: got %v; want an error naming make test-deps", err)
	}
	pinned := filepath.Join(root, ".bin", "tool")
	writeExecutable(t, pinned)
	for _, ci := range []bool{false, true} {
		if got, err := findTool(root, "tool", ci); err != nil || got != pinned {
			t.Errorf("ci=%v: got %q, %v; want %s", ci, got, err, pinned)
		}
	}
}

func TestInCI(t *testing.T) {
	for v, want := range map[string]bool{"": false, "false": false, "0": false, "true": true, "1": true} {
		t.Setenv("CI", v)
		if got := InCI(); got != want {
			t.Errorf("CI=%q: InCI() = %v, want %v", v, got, want)
		}
	}
}

func writeExecutable(t *testing.T, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}
