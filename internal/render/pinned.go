package render

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// renderPinned renders paths as the revision the deployer's source pins
// has them (Deployer.Revision, resolved to a commit): its controller
// deploys that tree, never the pull request's head. The tree is read out
// of git as a base's is (Options.Trees, once for the run), and the paths,
// relative to the repository (or to Options.Root, a base's tree), are
// rendered from it with the tree as the boundary.
func renderPinned(ctx context.Context, paths []string, opts Options) (Result, error) {
	rev := opts.Deployer.Revision
	trees := opts.Trees
	if trees == nil {
		return Result{}, fmt.Errorf("%s is pinned to %s (%s), and this render reads no git tree", opts.Deployer.File, rev, rev.Field)
	}
	top := trees.Top
	if top == "" {
		var err error
		if top, err = gitexec.RepositoryOf(ctx, "."); err != nil {
			return Result{}, fmt.Errorf("%s is pinned to %s: not in a git repository, so its tree cannot be read: %w", opts.Deployer.File, rev, err)
		}
	}
	from := opts.Root
	if from == "" {
		from = top
	}
	tmp, err := trees.Tree(ctx, top, rev.Commit)
	if err != nil {
		return Result{}, fmt.Errorf("%s is pinned to %s (%s): reading its tree: %w", opts.Deployer.File, rev, rev.Field, err)
	}
	// The pinned tree is a commit's content: asked about through the one
	// confined reader.
	tree, err := repofs.Open(tmp, tmp)
	if err != nil {
		return Result{}, err
	}
	defer tree.Close()
	at := make([]string, len(paths))
	for i, p := range paths {
		rel, err := gitexec.Relative(from, p)
		if err != nil {
			return Result{}, err
		}
		at[i] = filepath.Join(tmp, rel)
		if _, err := tree.Lstat(at[i]); err != nil {
			return Result{}, fmt.Errorf("%s: not in the tree of %s, which %s pins: the controller would fail to build it", filepath.ToSlash(rel), rev, rev.Field)
		}
	}
	opts.Root, opts.Reads = tmp, nil
	r, err := renderWith(ctx, at, opts, sourceTable)
	if err != nil {
		// Name files as the repository does, not by the temporary copy.
		return Result{}, renamed(tmp, err)
	}
	return r, nil
}
