package config

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// ReadAtCommit reads file (relative to dir, or absolute inside the
// repository) as commit has it, in the git repository that holds dir.
// A checkout of any depth works: when commit is missing, as in the default
// depth-1 checkout of a pull request's merge commit, that one commit is
// fetched from origin (`git fetch --depth=1 origin <commit>`), with the
// credentials the checkout left. found is false when the commit has no
// such file; an error means the commit could not be read at all.
func ReadAtCommit(ctx context.Context, dir, commit, file string) (data []byte, found bool, err error) {
	if !gitexec.IsCommitID(commit) {
		return nil, false, fmt.Errorf("commit %q: not a full commit id", commit)
	}
	rel, err := repoPath(ctx, dir, file)
	if err != nil {
		return nil, false, err
	}
	if err := gitexec.EnsureCommit(ctx, dir, "origin", commit); err != nil {
		return nil, false, err
	}
	spec := commit + ":" + rel
	kind, err := gitexec.ObjectType(ctx, dir, spec)
	if err != nil {
		// The commit is there (checked above): the path is not.
		return nil, false, nil
	}
	if kind != "blob" {
		return nil, false, fmt.Errorf("%s at commit %s is a %s, not a file", rel, model.ShortCommit(commit), kind)
	}
	size, err := gitexec.ObjectSize(ctx, dir, spec)
	if err != nil {
		return nil, false, err
	}
	if n, err := strconv.ParseInt(size, 10, 64); err != nil || n > int64(repofs.ConfigFile) {
		return nil, false, fmt.Errorf("%s at commit %s: larger than %d bytes", rel, model.ShortCommit(commit), repofs.ConfigFile)
	}
	data, err = gitexec.Blob(ctx, dir, spec)
	if err != nil {
		return nil, false, err
	}
	return data, true, nil
}

// RepoPath gives file (relative to dir, or absolute) relative to the root
// of the git repository that holds dir, with forward slashes: the path
// GitHub's contents API takes. Outside a git repository it is file,
// cleaned.
func RepoPath(ctx context.Context, dir, file string) string {
	if rel, err := repoPath(ctx, dir, file); err == nil {
		return rel
	}
	return filepath.ToSlash(filepath.Clean(file))
}

func repoPath(ctx context.Context, dir, file string) (string, error) {
	root, err := gitexec.TopLevel(ctx, dir)
	if err != nil {
		return "", err
	}
	abs := file
	if !filepath.IsAbs(abs) {
		if abs, err = filepath.Abs(filepath.Join(dir, file)); err != nil {
			return "", err
		}
	}
	// Compare real paths, as git does.
	if d, err := repofs.RealPath(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || !repofs.Within(root, abs) {
		return "", fmt.Errorf("%s is outside the git repository %s: a file of the base commit must be in the repository", file, root)
	}
	return filepath.ToSlash(rel), nil
}
