//go:build linux

package action

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestDropToWorkspaceOwner: as root (in a child process: dropping root is
// for good), the action becomes the workspace's owner, as on a runner
// whose user is 1001:121.
func TestDropToWorkspaceOwner(t *testing.T) {
	if ws := os.Getenv("OWNERSHIP_CHECK_TEST_DROP"); ws != "" {
		if err := dropToWorkspaceOwner(ws); err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() != 1001 || os.Getegid() != 121 {
			t.Fatalf("uid %d gid %d, want 1001 121", os.Geteuid(), os.Getegid())
		}
		if err := os.WriteFile(filepath.Join(ws, "written"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if os.Geteuid() != 0 {
		if err := dropToWorkspaceOwner(t.TempDir()); err != nil {
			t.Fatal(err)
		}
		t.Skip("dropping root needs root")
	}
	// Not t.TempDir: its parent is 0700 and uid 1001 must reach ws.
	ws, err := os.MkdirTemp("", "workspace-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ws) })
	if err := os.Chown(ws, 1001, 121); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestDropToWorkspaceOwner$", "-test.short", "-test.count=1")
	cmd.Env = append(os.Environ(), "OWNERSHIP_CHECK_TEST_DROP="+ws)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	fi, err := os.Stat(filepath.Join(ws, "written"))
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != 1001 || st.Gid != 121 {
		t.Errorf("file written as %d:%d, want 1001:121", st.Uid, st.Gid)
	}
}

// TestActionKeepsTheRunnersUser: the composite action runs as the runner's
// user, root included, and switches only when the image asks for it. As
// root, in child processes (a switch is for good).
func TestActionKeepsTheRunnersUser(t *testing.T) {
	if ws := os.Getenv("OWNERSHIP_CHECK_TEST_ACTION_USER"); ws != "" {
		t.Setenv("GITHUB_WORKSPACE", ws)
		t.Setenv("INPUT_MODE", "nonsense") // stops right after the switch
		var out strings.Builder
		if code := exitStatus(Run(context.Background(), "v0.1.0", &out, &out)); code != ExitError {
			t.Fatalf("exit %d: %s", code, out.String())
		}
		fmt.Printf("euid=%d\n", os.Geteuid())
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	ws, err := os.MkdirTemp("", "workspace-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(ws) })
	if err := os.Chown(ws, 1001, 121); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ env, euid string }{
		{"", "euid=0"}, // the composite action
		{actionUserEnv + "=workspace-owner", "euid=1001"}, // the image
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestActionKeepsTheRunnersUser$", "-test.short", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "OWNERSHIP_CHECK_TEST_ACTION_USER="+ws, "GITHUB_OUTPUT=", "GITHUB_STEP_SUMMARY=", c.env)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), c.euid+"\n") {
			t.Errorf("with %q: want %s: %v\n%s", c.env, c.euid, err, out)
		}
	}
}
