package testcluster

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Tool returns the path of a command-line tool that `make test-deps` builds
// into .bin/, such as kubectl. Outside CI a tool missing there is looked up on
// PATH, and the test skips when it is nowhere. In CI (CI set, as GitHub
// Actions does) only .bin/ counts and a missing tool fails the test: the
// setup provides every tool, so a skip there would hide a broken setup, and
// a PATH copy of another version would compare against the wrong tool.
func Tool(t testing.TB, name string) string {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	ci := InCI()
	path, err := findTool(root, name, ci)
	switch {
	case err == nil:
		return path
	case ci:
		t.Fatalf("%v (CI=%s: a missing test tool fails instead of skipping)", err, os.Getenv("CI"))
	default:
		t.Skipf("%v, and no %s on PATH", err, name)
	}
	return ""
}

// InCI reports whether the tests run in CI, where missing test dependencies
// fail instead of skipping.
func InCI() bool {
	switch os.Getenv("CI") {
	case "", "0", "false", "False", "FALSE":
		return false
	}
	return true
}

func findTool(root, name string, ci bool) (string, error) {
	path, err := executable(filepath.Join(root, ".bin", name), "")
	if err == nil || ci {
		return path, err
	}
	if p, lerr := exec.LookPath(name); lerr == nil {
		return p, nil
	}
	return "", err
}
