// Package gitexec is the one place the tool executes git. Every command
// gets the same hardening, whoever runs it: the config reader at the base
// commit, the snapshot store, check's source commit, the base's tree; and
// every failure the same shape (Error).
package gitexec

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// Where says which repository a command works on: Dir as `git -C`, GitDir
// as GIT_DIR (the snapshot store's bare view, which never touches the
// user's working tree, index or HEAD). Env is added to the hardened
// environment (an identity, GIT_INDEX_FILE for one call).
type Where struct {
	Dir    string
	GitDir string
	Env    []string
}

// repoVars locate a repository; inherited from a git hook or a wrapper they
// would point our commands at the user's index or work tree.
var repoVars = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_PREFIX"}

// command is git with args, hardened:
//   - safe.directory=*: the checkout may belong to another user (a
//     container action), which git refuses as "dubious ownership" unless
//     allowed on the command line, the only place we can without writing
//     the user's global config;
//   - no gc or maintenance behind the user's back;
//   - never a prompt for a password nobody will type (GIT_TERMINAL_PROMPT,
//     GIT_ASKPASS, SSH_ASKPASS);
//   - LC_ALL=C: callers match git's messages (push rejections, missing refs);
//   - no inherited variable that points at another repository.
func command(ctx context.Context, w Where, args ...string) *exec.Cmd {
	full := []string{"-c", "safe.directory=*", "-c", "gc.auto=0", "-c", "maintenance.auto=false"}
	if w.Dir != "" {
		full = append(full, "-C", w.Dir)
	}
	cmd := exec.CommandContext(ctx, "git", append(full, args...)...)
	cmd.Env = append(env(), w.Env...)
	if w.GitDir != "" {
		cmd.Env = append(cmd.Env, "GIT_DIR="+w.GitDir)
	}
	return cmd
}

func env() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(repoVars, k) {
			out = append(out, kv)
		}
	}
	return append(out, "LC_ALL=C", "GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=")
}
