package gitexec

import (
	"context"
	"errors"
	"strings"
)

// The commands that find a repository and move its refs and remotes, for
// a caller that keeps its own branch (the snapshot store): each works on
// the repository w names, usually through GIT_DIR alone, so the user's
// working tree, index and HEAD are never read or written.

// CheckRefFormat tells whether ref is a well-formed ref name
// (`check-ref-format`); a malformed one is an *Error with a positive exit
// status, and any other error means git could not run.
func CheckRefFormat(ctx context.Context, ref string) error {
	_, err := Run(ctx, Where{}, nil, "check-ref-format", ref)
	return err
}

// GitDir is the absolute git directory of the repository holding dir.
func GitDir(ctx context.Context, dir string) (string, error) {
	return line(ctx, dir, "rev-parse", "--absolute-git-dir")
}

// InitBare makes an empty bare repository at dir.
func InitBare(ctx context.Context, w Where, dir string) error {
	_, err := Run(ctx, w, nil, "init", "--quiet", "--bare", dir)
	return err
}

// AddRemote names url as the remote name.
func AddRemote(ctx context.Context, w Where, name, url string) error {
	_, err := Run(ctx, w, nil, "remote", "add", name, url)
	return err
}

// Remotes lists the names of the repository's remotes.
func Remotes(ctx context.Context, w Where) ([]string, error) {
	out, err := Run(ctx, w, nil, "remote")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

// IsShallow tells whether the repository is a shallow clone; false when
// git cannot say.
func IsShallow(ctx context.Context, w Where) bool {
	out, err := Run(ctx, w, nil, "rev-parse", "--is-shallow-repository")
	return err == nil && strings.TrimSpace(string(out)) == "true"
}

// ResolveCommit is the full id of the commit rev names, "" when it names
// none (unlike CommitOf, for which that is an error).
func ResolveCommit(ctx context.Context, w Where, rev string) (string, error) {
	out, err := Run(ctx, w, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// Fetch fetches refspec from remote without tags, submodules or
// FETCH_HEAD; shallow fetches it at depth 1.
func Fetch(ctx context.Context, w Where, remote, refspec string, shallow bool) error {
	args := []string{"fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--no-recurse-submodules"}
	if shallow {
		args = append(args, "--depth=1")
	}
	_, err := Run(ctx, w, nil, append(args, remote, refspec)...)
	return err
}

// Push pushes refspec to remote, never forced, without the user's
// pre-push hooks (`--no-verify`: they are for the user's code); a
// rejection is an *Error with git's porcelain answer in its words.
func Push(ctx context.Context, w Where, remote, refspec string) error {
	_, err := Run(ctx, w, nil, "push", "--porcelain", "--no-verify", remote, refspec)
	return err
}

// SetRef points ref at commit, whatever it pointed at.
func SetRef(ctx context.Context, w Where, ref, commit string) error {
	_, err := Run(ctx, w, nil, "update-ref", ref, commit)
	return err
}

// MoveRef points ref at commit only while it still points at old ("": it
// must not exist), a compare-and-swap logged with message.
func MoveRef(ctx context.Context, w Where, ref, commit, old, message string) error {
	_, err := Run(ctx, w, nil, "update-ref", "-m", message, ref, commit, old)
	return err
}

// DeleteRef deletes ref.
func DeleteRef(ctx context.Context, w Where, ref string) error {
	_, err := Run(ctx, w, nil, "update-ref", "-d", ref)
	return err
}
