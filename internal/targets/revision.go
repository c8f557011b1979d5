package targets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
)

// pins resolves the revisions discovered targets' sources pin, against
// the repository's remote (its refs read once for the run): a branch
// the checkout is on renders from the working tree, as the pull request
// merged into it is what its controller deploys next; any other
// revision renders from its own tree, fetched when the checkout lacks
// it.
type pins struct {
	top string

	once     sync.Once
	refs     gitexec.RefSet
	checkout []string // the branches the checkout is on
	err      error
}

// remoteOf is the remote a pinned revision is read from: origin, which
// names this repository for discovery too; "" when there is none.
func remoteOf(ctx context.Context, top string) string {
	if u, err := gitexec.RemoteURL(ctx, top, "origin"); err == nil && u != "" {
		return "origin"
	}
	return ""
}

func (p *pins) load(ctx context.Context) error {
	p.once.Do(func() {
		remote := remoteOf(ctx, p.top)
		if p.refs, p.err = gitexec.Refs(ctx, p.top, remote); p.err != nil {
			return
		}
		// The checkout's branches: the one HEAD is on, the default one
		// (where a pull request usually merges), and any whose tip is HEAD
		// or a parent of it (a pull request's merge commit has the base
		// branch's tip first).
		heads, err := gitexec.HeadAndParents(ctx, p.top)
		if err != nil {
			p.err = err
			return
		}
		p.checkout = append(p.refs.BranchesAt(heads...), p.refs.Default, gitexec.CurrentBranch(ctx, p.top))
	})
	return p.err
}

// resolve gives the deployer's revision its commit, or says it is the
// checkout's; a revision that does not resolve is the target's reason
// not to be checked. The deployer's Revision is replaced, never changed
// in place.
func (p *pins) resolve(ctx context.Context, d *model.Deployer) (reason string) {
	if d == nil || d.Revision == nil {
		return ""
	}
	rev := *d.Revision
	d.Revision = &rev
	if err := p.load(ctx); err != nil {
		return fmt.Sprintf("%s pins %s %s, and the repository's refs could not be read: %v", rev.Field, rev.Kind, rev.Ref, err)
	}
	if branch := p.branchOf(rev); branch != "" && slices.Contains(p.checkout, branch) {
		rev.Checkout = true
		return ""
	}
	commit, err := p.refs.Resolve(rev.Kind, rev.Ref)
	if err != nil && p.refs.Remote == "" && p.namesBranch(rev) {
		// A checkout without a remote knows no branch but its own: one
		// it lacks is the one its commits go to.
		rev.Checkout = true
		return ""
	}
	if err == nil {
		err = gitexec.EnsureCommit(ctx, p.top, p.refs.Remote, commit)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", rev.Field, err)
	}
	rev.Commit = commit
	return ""
}

// namesBranch says whether rev may name a branch.
func (p *pins) namesBranch(rev model.Revision) bool {
	return rev.Kind == model.RevisionBranch || rev.Kind == model.RevisionRef || rev.Kind == model.RevisionName && strings.HasPrefix(rev.Ref, "refs/heads/")
}

// branchOf is the branch a revision names, "" for a tag, a range or a
// commit.
func (p *pins) branchOf(rev model.Revision) string {
	switch rev.Kind {
	case model.RevisionBranch:
		return rev.Ref
	case model.RevisionName:
		b, _ := strings.CutPrefix(rev.Ref, "refs/heads/")
		if b == rev.Ref {
			return ""
		}
		return b
	case model.RevisionRef:
		if _, ok := p.refs.Refs["refs/heads/"+rev.Ref]; ok {
			return rev.Ref
		}
	}
	return ""
}

// revisionNotes say which revision a pinned target renders, for its
// report: a pull request changes what it deploys only through its
// GitOps object and source, never through the files of its paths.
func revisionNotes(d *model.Deployer) []string {
	if d == nil || !d.Revision.Pinned() {
		return nil
	}
	r := d.Revision
	return []string{fmt.Sprintf("rendered at %s, which %s pins: this pull request changes what it deploys only through its GitOps objects", r, r.Field)}
}
