//go:build linux

package action

import (
	"fmt"
	"os"
	"syscall"
)

// dropToWorkspaceOwner switches a root process to the user and group that
// own the workspace; only the container image asks for it (actionUserEnv).
// GitHub starts a container action as root and an image USER breaks on
// runners whose uid differs (the workspace and the GITHUB_OUTPUT files belong
// to the runner's user), so the image has none and the action drops root
// itself, before it reads anything: it then runs unprivileged and leaves
// files the runner's user owns. Not root, or a workspace owned by root (a
// runner running as root): nothing to do.
func dropToWorkspaceOwner(workspace string) error {
	if os.Geteuid() != 0 || workspace == "" {
		return nil
	}
	fi, err := os.Stat(workspace)
	if err != nil {
		return fmt.Errorf("GITHUB_WORKSPACE: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Uid == 0 {
		return nil
	}
	// Since Go 1.16 these apply to every thread of the process.
	if err := syscall.Setgroups([]int{int(st.Gid)}); err != nil {
		return fmt.Errorf("dropping root: setgroups: %w", err)
	}
	if err := syscall.Setgid(int(st.Gid)); err != nil {
		return fmt.Errorf("dropping root: setgid %d: %w", st.Gid, err)
	}
	if err := syscall.Setuid(int(st.Uid)); err != nil {
		return fmt.Errorf("dropping root: setuid %d: %w", st.Uid, err)
	}
	return nil
}
