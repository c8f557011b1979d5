package targets

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/gitops"
)

// pins resolves the revisions discovered targets' sources pin: against
// the checkout's own refs, and the remote's (one `ls-remote` for the
// run) when the checkout is shallow or lacks the revision. A branch the
// checkout is on renders from the working tree, as the pull request
// merged into it is what its controller deploys next; any other
// revision renders from its own tree, fetched when the checkout lacks
// it.
type pins struct {
	top string

	once     sync.Once
	remote   string
	local    gitexec.RefSet
	shallow  bool
	heads    []string // HEAD and its parents
	current  string   // the branch HEAD is on
	err      error
	remoteAt sync.Once
	remotes  gitexec.RefSet
	// remoteErr is why the remote's refs could not be read.
	remoteErr error
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
		p.remote = remoteOf(ctx, p.top)
		if p.local, p.err = gitexec.LocalRefs(ctx, p.top, p.remote); p.err != nil {
			return
		}
		p.shallow = gitexec.IsShallow(ctx, gitexec.Where{Dir: p.top})
		p.heads, p.err = gitexec.HeadAndParents(ctx, p.top)
		p.current = gitexec.CurrentBranch(ctx, p.top)
	})
	return p.err
}

// remoteRefs are the remote's refs, read once; ok false without them.
func (p *pins) remoteRefs(ctx context.Context) (gitexec.RefSet, bool) {
	p.remoteAt.Do(func() {
		if p.remote == "" {
			p.remoteErr = fmt.Errorf("no remote origin")
			return
		}
		p.remotes, p.remoteErr = gitexec.RemoteRefs(ctx, p.top, p.remote)
	})
	return p.remotes, p.remoteErr == nil
}

// refsFor are the refs a revision is resolved among: the remote's when
// the checkout is shallow (it has none but its own) or its own refs lack
// the revision, else the checkout's.
func (p *pins) refsFor(ctx context.Context, rev delivery.Revision) gitexec.RefSet {
	if !p.shallow {
		if _, err := p.local.Resolve(rev.Kind, rev.Ref); err == nil {
			return p.local
		}
	}
	if rs, ok := p.remoteRefs(ctx); ok {
		return rs
	}
	return p.local
}

// onCheckout says whether branch is one the checkout is on: the one HEAD
// is on, the default one (where a pull request usually merges), or one
// whose tip is HEAD or a parent of it (a pull request's merge commit has
// the base branch's tip first).
func (p *pins) onCheckout(rs gitexec.RefSet, branch string) bool {
	return branch != "" && (branch == p.current || branch == rs.Default || branch == p.local.Default ||
		slices.Contains(rs.BranchesAt(p.heads...), branch))
}

// resolve gives the deployer's revision its commit, or says it is the
// checkout's; a revision that does not resolve is the target's reason
// not to be checked. The deployer's Revision is replaced, never changed
// in place.
func (p *pins) resolve(ctx context.Context, d *delivery.Deployer) (reason string) {
	if d == nil || d.Revision == nil {
		return ""
	}
	rev := *d.Revision
	d.Revision = &rev
	if err := p.load(ctx); err != nil {
		return fmt.Sprintf("%s pins %s %s, and the repository's refs could not be read: %v", rev.Field, rev.Kind, rev.Ref, err)
	}
	rs := p.refsFor(ctx, rev)
	if p.onCheckout(rs, branchOf(rs, rev)) {
		rev.Checkout = true
		return ""
	}
	commit, err := rs.Resolve(rev.Kind, rev.Ref)
	var short *gitexec.ShortCommitError
	if errors.As(err, &short) {
		commit, err = p.shortCommit(ctx, short)
	}
	if err != nil && short == nil && rs.Remote == "" && namesBranch(rev) {
		// A checkout whose remote does not answer knows no branch but
		// its own: one it lacks is the one its commits go to.
		rev.Checkout = true
		return ""
	}
	if err == nil {
		err = gitexec.EnsureCommit(ctx, p.top, p.remote, commit)
	}
	if err != nil {
		return fmt.Sprintf("%s: %v", rev.Field, err)
	}
	rev.Commit = commit
	return ""
}

// shortCommit is the commit a revision cut short names, as Argo CD
// finds it: among all the repository's commits, which it fetches whole
// first; here, the checkout's.
func (p *pins) shortCommit(ctx context.Context, short *gitexec.ShortCommitError) (string, error) {
	c, err := gitexec.CommitBeginning(ctx, p.top, short.Ref)
	switch {
	case err == nil:
		return c, nil
	case p.shallow:
		return "", fmt.Errorf("%v; the checkout is shallow, with none of the history to look in: check out the whole history (fetch-depth: 0), or pin the whole commit SHA", short)
	}
	return "", fmt.Errorf("%v; %v", short, err)
}

// namesBranch says whether rev may name a branch.
func namesBranch(rev delivery.Revision) bool {
	return rev.Kind == delivery.RevisionBranch || rev.Kind == delivery.RevisionRef || rev.Kind == delivery.RevisionName && strings.HasPrefix(rev.Ref, "refs/heads/")
}

// branchOf is the branch a revision names among rs, "" for a tag, a
// range or a commit.
func branchOf(rs gitexec.RefSet, rev delivery.Revision) string {
	switch rev.Kind {
	case delivery.RevisionBranch:
		return rev.Ref
	case delivery.RevisionName:
		b, _ := strings.CutPrefix(rev.Ref, "refs/heads/")
		if b == rev.Ref {
			return ""
		}
		return b
	case delivery.RevisionRef:
		if _, ok := rs.Refs["refs/heads/"+rev.Ref]; ok {
			return rev.Ref
		}
	}
	return ""
}

// revisionNotes say which revision a pinned target renders, for its
// report: a pull request changes what it deploys only through its
// GitOps object and source, never through the files of its paths.
func revisionNotes(d *delivery.Deployer) []string {
	if d == nil || !d.Revision.Pinned() {
		return nil
	}
	r := d.Revision
	return []string{fmt.Sprintf("rendered at %s, which %s pins: this pull request changes what it deploys only through its GitOps objects", r, r.Field)}
}

// discoverAt is discover with the trees the sources' revisions pin read
// out of git for it (and removed when it returns): a Kustomization whose
// GitRepository pins another branch has its path, and what it applies,
// there.
func discoverAt(ctx context.Context, repo gitops.Repository, entries []config.Discover, p *pins) ([]gitops.Target, error) {
	trees := &gitexec.Trees{Top: p.top}
	defer trees.Close()
	repo.TreeOf = p.treeOf(trees)
	return discover(ctx, repo, entries)
}

// treeOf is the gitops.TreeReader of p's repository: the working tree
// ("") for a revision the checkout is on, else its commit's tree in
// trees, or why it cannot be had.
func (p *pins) treeOf(trees *gitexec.Trees) gitops.TreeReader {
	return func(ctx context.Context, rev *delivery.Revision) (string, string) {
		d := &delivery.Deployer{Revision: rev}
		if reason := p.resolve(ctx, d); reason != "" {
			return "", reason
		}
		if d.Revision.Checkout || d.Revision.Commit == "" {
			return "", ""
		}
		dir, err := trees.Tree(ctx, p.top, d.Revision.Commit)
		if err != nil {
			return "", fmt.Sprintf("%s: reading the tree of %s: %v", rev.Field, d.Revision, err)
		}
		return dir, ""
	}
}
