package gitexec

import (
	"bytes"
	"context"
	"strings"
)

// The commands the tool's packages ask of a repository, each named for
// what it answers, so that no package outside this one writes a git
// command line. dir is the repository's directory (as `git -C`; "" the
// working directory).

// CommitOf is the full id of the commit rev names (`rev-parse --verify
// rev^{commit}`); a rev that names none is an *Error.
func CommitOf(ctx context.Context, dir, rev string) (string, error) {
	return line(ctx, dir, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
}

// Head is the commit HEAD names; an *Error when there is none (no
// repository, or one without commits).
func Head(ctx context.Context, dir string) (string, error) {
	return line(ctx, dir, "rev-parse", "--verify", "--quiet", "HEAD")
}

// RemoteURL is the URL of the named remote; an *Error when there is none.
func RemoteURL(ctx context.Context, dir, remote string) (string, error) {
	return line(ctx, dir, "remote", "get-url", remote)
}

// HasCommit tells whether the repository holds commit (`cat-file -e`).
func HasCommit(ctx context.Context, dir, commit string) bool {
	_, err := Run(ctx, Where{Dir: dir}, nil, "cat-file", "-e", commit+"^{commit}")
	return err == nil
}

// FetchCommit fetches commit alone (depth 1, no tags) from remote.
func FetchCommit(ctx context.Context, dir, remote, commit string) error {
	_, err := Run(ctx, Where{Dir: dir}, nil, "fetch", "--quiet", "--no-tags", "--no-recurse-submodules", "--depth=1", remote, commit)
	return err
}

// ObjectType is the type of the object spec names ("blob", "tree", ...);
// an *Error when it names none.
func ObjectType(ctx context.Context, dir, spec string) (string, error) {
	return line(ctx, dir, "cat-file", "-t", spec)
}

// ObjectSize is the size in bytes of the object spec names, as git prints
// it.
func ObjectSize(ctx context.Context, dir, spec string) (string, error) {
	return line(ctx, dir, "cat-file", "-s", spec)
}

// Blob is the content of the blob spec names.
func Blob(ctx context.Context, dir, spec string) ([]byte, error) {
	return Run(ctx, Where{Dir: dir}, nil, "cat-file", "blob", spec)
}

// PathStatus is one path of a diff, with its status letter as git's
// --name-status gives it ('M', 'A', 'D', ...).
type PathStatus struct {
	Status byte
	Path   string
}

// ChangedSince lists the paths the working tree changed since rng (a
// revision, or a range a..b), renames as a delete and an add.
func ChangedSince(ctx context.Context, dir, rng string) ([]PathStatus, error) {
	out, err := Run(ctx, Where{Dir: dir}, nil, "diff", "--name-status", "--no-renames", "-z", rng, "--")
	if err != nil {
		return nil, err
	}
	var cs []PathStatus
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		if len(fields[i]) == 0 {
			break
		}
		cs = append(cs, PathStatus{Status: fields[i][0], Path: string(fields[i+1])})
	}
	return cs, nil
}

// Untracked lists the files not yet added that .gitignore does not
// exclude.
func Untracked(ctx context.Context, dir string) ([]string, error) {
	return paths(ctx, dir, "ls-files", "--others", "--exclude-standard", "-z")
}

// paths runs a command that answers NUL-separated paths.
func paths(ctx context.Context, dir string, args ...string) ([]string, error) {
	out, err := Run(ctx, Where{Dir: dir}, nil, args...)
	if err != nil {
		return nil, err
	}
	var ps []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			ps = append(ps, string(p))
		}
	}
	return ps, nil
}

// line runs a command that answers one line, and gives it trimmed.
func line(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := Run(ctx, Where{Dir: dir}, nil, args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
