package testcluster

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Stop must leave nothing behind: no process of either group, no data dir.
func TestStopKillsProcessesAndRemovesDir(t *testing.T) {
	if testing.Short() {
		t.Skip("starts its own API server; run without -short")
	}
	c, err := Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop() })
	pgids := []int{c.etcd.cmd.Process.Pid, c.apiserver.cmd.Process.Pid}
	for _, name := range []string{"etcd.log", "kube-apiserver.log", "certs/apiserver.crt"} {
		if _, err := os.Stat(filepath.Join(c.dir, name)); err != nil {
			t.Errorf("expected %s in the data dir: %v", name, err)
		}
	}

	if err := c.Stop(); err != nil {
		t.Fatalf("Stop: %v", err)
	}
	if err := c.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	for _, pgid := range pgids {
		if err := syscall.Kill(-pgid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("process group %d still exists after Stop (kill -0: %v)", pgid, err)
		}
	}
	if _, err := os.Stat(c.dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data dir %s still exists after Stop: %v", c.dir, err)
	}
}

func TestMissingBinaryNamesTheFix(t *testing.T) {
	t.Setenv(envKubeAPIServer, "")
	_, err := executable(filepath.Join(t.TempDir(), "kube-apiserver"), "")
	if err == nil || !strings.Contains(err.Error(), "make test-deps") {
		t.Errorf("got %v, want an error that says to run make test-deps", err)
	}
	t.Setenv(envKubeAPIServer, filepath.Join(t.TempDir(), "nope"))
	if _, err := kubeAPIServerBinary(); err == nil || !strings.Contains(err.Error(), envKubeAPIServer) {
		t.Errorf("got %v, want an error naming %s", err, envKubeAPIServer)
	}
}

func TestModuleRootSkipsOtherModules(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "internal", "testkit", "testcluster")); err != nil {
		t.Errorf("ModuleRoot() = %s, not this module: %v", root, err)
	}
	if _, ok := findModuleRoot(filepath.Join(root, "tools", "kube")); !ok {
		t.Errorf("no module root found from tools/kube")
	}
	if got, _ := findModuleRoot(filepath.Join(root, "tools", "kube")); got != root {
		t.Errorf("from tools/kube: got %s, want %s", got, root)
	}
}

// BenchmarkStartStop measures what every package with cluster tests pays
// once: etcd + kube-apiserver up to ready, then torn down.
func BenchmarkStartStop(b *testing.B) {
	for b.Loop() {
		c, err := Start(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Stop(); err != nil {
			b.Fatal(err)
		}
	}
}
