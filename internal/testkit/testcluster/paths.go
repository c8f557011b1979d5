package testcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
)

var minorPattern = regexp.MustCompile(`^1\.[0-9]+$`)

const (
	modulePath = "github.com/ownership-check/ownership-check"

	envKubeAPIServer = "OWNERSHIP_CHECK_KUBE_APISERVER"
	envEtcd          = "OWNERSHIP_CHECK_ETCD"
	// envKubeVersion picks which of the API servers `make test-deps` builds
	// the tests run against: empty (or the pinned minor) is .bin/kube-apiserver,
	// any other minor such as 1.37 is .bin/kube-apiserver-1.37.
	envKubeVersion = "OWNERSHIP_CHECK_KUBE_VERSION"
	pinnedMinor    = "1.33"

	installHint = "run `make test-deps` (or ./hack/ensure-test-deps.sh) first"
)

// ModuleRoot returns the directory of this module's go.mod. It walks up from
// the working directory (a test runs in its package directory) and falls back
// to this source file's location.
func ModuleRoot() (string, error) {
	var starts []string
	if wd, err := os.Getwd(); err == nil {
		starts = append(starts, wd)
	}
	if _, file, _, ok := runtime.Caller(0); ok {
		starts = append(starts, filepath.Dir(file))
	}
	for _, dir := range starts {
		if root, ok := findModuleRoot(dir); ok {
			return root, nil
		}
	}
	return "", fmt.Errorf("testcluster: go.mod of %s not found above %v", modulePath, starts)
}

// findModuleRoot skips other modules' go.mod files on the way up, such as
// tools/kube's.
func findModuleRoot(dir string) (string, bool) {
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.Contains(data, []byte("module "+modulePath+"\n")) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func kubeAPIServerBinary() (string, error) {
	if p := os.Getenv(envKubeAPIServer); p != "" {
		return executable(p, envKubeAPIServer)
	}
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	name, err := kubeAPIServerName(os.Getenv(envKubeVersion))
	if err != nil {
		return "", err
	}
	return executable(filepath.Join(root, ".bin", name), "")
}

// kubeAPIServerName maps a minor version to the file name under .bin/. The
// pinned one keeps its plain name so that existing checkouts stay valid.
func kubeAPIServerName(minor string) (string, error) {
	switch minor {
	case "", pinnedMinor:
		return "kube-apiserver", nil
	}
	if !minorPattern.MatchString(minor) {
		return "", fmt.Errorf("testcluster: %s=%q is not a minor version such as 1.37", envKubeVersion, minor)
	}
	return "kube-apiserver-" + minor, nil
}

func etcdBinary() (string, error) {
	if p := os.Getenv(envEtcd); p != "" {
		return executable(p, envEtcd)
	}
	if p, err := exec.LookPath("etcd"); err == nil {
		return p, nil
	}
	return executable("/usr/bin/etcd", "")
}

func executable(path, fromEnv string) (string, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if fromEnv != "" {
			return "", fmt.Errorf("testcluster: %s=%s does not exist", fromEnv, path)
		}
		return "", fmt.Errorf("testcluster: %s is missing: %s", path, installHint)
	case err != nil:
		return "", fmt.Errorf("testcluster: %w", err)
	case info.IsDir() || info.Mode()&0o111 == 0:
		return "", fmt.Errorf("testcluster: %s is not an executable file: %s", path, installHint)
	}
	return path, nil
}

// Pinned tells whether the tests run against the pinned API server: pages
// generated from a real server's answers (its defaults) are written and
// compared on that one only.
func Pinned() bool {
	v := os.Getenv(envKubeVersion)
	return v == "" || v == pinnedMinor
}
