package gitops

import (
	"context"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// TreeReader gives the directory holding the tree a source's revision
// pins (a GitRepository's spec.ref): "" for the working tree (the branch
// the checkout is on), or why it cannot be had. Discovery reads a pinned
// Kustomization's path, and what it applies, there, as its controller
// does; reading git is its caller's.
type TreeReader func(ctx context.Context, rev *delivery.Revision) (dir, reason string)

// main is the discovery of the working tree.
func (s *discovery) main() *discovery {
	if s.top != nil {
		return s.top
	}
	return s
}

// treeOf is the discovery of the tree rev pins (the working tree's when
// it pins none, or the repository gives no TreeReader), or why it cannot
// be read.
func (s *discovery) treeOf(ctx context.Context, rev *delivery.Revision) (*discovery, string, error) {
	top := s.main()
	if rev == nil || top.repo.TreeOf == nil {
		return top, "", nil
	}
	dir, reason := top.repo.TreeOf(ctx, rev)
	switch {
	case reason != "":
		return nil, reason, nil
	case dir == "":
		return top, "", nil
	}
	if v, ok := top.trees[dir]; ok {
		return v, "", nil
	}
	repo := top.repo
	repo.Root = dir
	read, err := openRepository(&repo)
	if err != nil {
		return nil, "", fmt.Errorf("the tree of %s: %w", rev, err)
	}
	v := &discovery{repo: repo, entries: top.entries, read: read, files: map[string][]document{}, apps: top.apps, appDirs: top.appDirs, argoOptions: top.argoOptions, rev: rev, top: top}
	top.trees[dir] = v
	return v, "", nil
}

// treeKey tells apart what two trees hold at one path, in the keys of
// what discovery has read.
func (s *discovery) treeKey() string {
	if s.rev == nil {
		return ""
	}
	return s.repo.Root + ":"
}

// closeTrees releases the readers of the trees read.
func (s *discovery) closeTrees() {
	for _, v := range s.trees {
		v.read.Close()
	}
}
