package render

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/repofs"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Base is what a pull request's base desires: the same paths, rendered
// with the same config and rules at the base revision.
type Base struct {
	// Commit is the base revision's commit id.
	Commit string
	// Charts are the charts the base released (Result.Charts): with the
	// head's, what the report names as a chart's version and digest at
	// base and head.
	Charts []delivery.ChartPin
	// Absent says the base has no such target (BaseOf.DeployerAt found
	// none): the pull request adds it.
	Absent bool
	// NotRendered is what the base's render left out, as Result's: the
	// target's own reason when the base lists it but does not check it
	// (DeployerAt's *TargetNotChecked).
	NotRendered []NotRendered
	objects     map[model.ID]model.Object
	// sameAsHead are the objects the head renders exactly as the base
	// does; objects holds no copy of them (in most pull requests, most).
	sameAsHead map[model.ID]bool
}

// Head is the head's render of the same paths that a base is rendered
// beside: every file and listing it read, and its objects.
type Head struct {
	Reads   *Reads
	Objects []model.Object
	// Charts are the head's Result.Charts: the base's too when the base
	// is taken as the head's render.
	Charts []delivery.ChartPin
}

// BaseOf says where and how a base is rendered.
type BaseOf struct {
	// Rev is the base revision; Paths the head's paths, rendered as Rev
	// has them with Options.
	Rev     string
	Paths   []string
	Options Options
	// Trees read the base's tree out of git, once for a run; Trees.Top,
	// when set, is the top of the repository holding Paths.
	Trees *gitexec.Trees
	// DeployerAt, with Options.Deployer, finds the target's controller
	// object in the base's tree (its top at root): the base renders as its
	// own object says, at its own paths; nil, the base has no such target
	// (Base.Absent); a *TargetNotChecked, the base lists it but does not
	// check it (Base.NotRendered).
	DeployerAt func(ctx context.Context, root string) (*delivery.Deployer, []string, error)
	// Head, when known, lets a base whose files the head read unchanged
	// be taken as the head's render, and the base read sparsely.
	Head *Head
}

// Object is the base's object id, and whether the base renders it; an
// object the head renders the same gives the head's.
func (b *Base) Object(id model.ID, head *unstructured.Unstructured) (*unstructured.Unstructured, bool) {
	if b.sameAsHead[id] {
		return head, true
	}
	o, ok := b.objects[id]
	return o.Object, ok
}

// Compare lets go of the base's copies of the objects head renders the
// same, and tells whether head renders exactly what the base renders.
func (b *Base) Compare(head []model.Object) (unchanged bool) {
	b.sameAsHead = map[model.ID]bool{}
	for _, o := range head {
		if bo, ok := b.objects[o.ID]; ok && model.EqualValues(o.Object.Object, bo.Object.Object) {
			b.sameAsHead[o.ID] = true
			delete(b.objects, o.ID)
		}
	}
	return len(b.objects) == 0 && len(b.sameAsHead) == len(head)
}

// RenderBase renders the paths as the base revision has them. The tree is
// read straight from git objects into a temporary directory, without a
// checkout, the index or the network (a missing base commit of a depth-1
// checkout is fetched alone, as for the config), and rendered with the
// same config, the same kustomize rules, the repository's tree as the
// boundary. A path the base does not have renders nothing. A revision
// that names no commit is an *UnresolvedError.
func RenderBase(ctx context.Context, of BaseOf) (*Base, error) {
	b := &Base{objects: map[model.ID]model.Object{}}
	if err := b.render(ctx, of); err != nil {
		return nil, fmt.Errorf("base %s: %w", of.Rev, err)
	}
	return b, nil
}

func (b *Base) render(ctx context.Context, of BaseOf) error {
	if len(of.Paths) == 0 {
		return nil
	}
	top, trees := of.Trees.Top, of.Trees
	var err error
	if top == "" {
		if top, err = gitexec.RepositoryOf(ctx, of.Paths[0]); err != nil {
			return fmt.Errorf("%s: not in a git repository, so there is no base to render: %w", of.Paths[0], err)
		}
	}
	b.Commit, err = trees.Resolved(ctx, top, of.Rev, func(ctx context.Context) (string, error) {
		if err := gitexec.EnsureCommit(ctx, top, "origin", of.Rev); err != nil {
			return "", &UnresolvedError{err}
		}
		c, err := gitexec.CommitOf(ctx, top, of.Rev)
		if err != nil {
			return "", &UnresolvedError{err}
		}
		return c, nil
	})
	if err != nil {
		return err
	}
	if of.Options.Deployer == nil && of.DeployerAt == nil && sameAtBase(ctx, trees, top, b.Commit, of.Head) {
		b.add(of.Head.Objects, of.Head.Charts)
		return nil
	}
	var rels []string
	for _, p := range of.Paths {
		rel, err := gitexec.Relative(top, p)
		if err != nil {
			return err
		}
		rels = append(rels, rel)
	}
	if dirs := sparseDirs(top, rels, of); dirs != nil {
		if tmp, err := trees.Sparse(ctx, top, b.Commit, dirs); err == nil {
			r, complete, err := renderIn(ctx, tmp, rels, of)
			if err == nil && complete {
				b.add(r.Objects, r.Charts)
				return nil
			}
		}
		// The base reads what the head does not: from the whole tree.
	}
	tmp, err := trees.Tree(ctx, top, b.Commit)
	if err != nil {
		return err
	}
	r, _, err := renderIn(ctx, tmp, rels, of)
	if errors.Is(err, errNoTarget) {
		b.Absent = true
		return nil
	}
	if err != nil {
		return err
	}
	b.add(r.Objects, r.Charts)
	// Named as the repository names its files, not by the temporary copy.
	unTmp := strings.NewReplacer(tmp+string(filepath.Separator), "", tmp, ".")
	for _, n := range r.NotRendered {
		b.NotRendered = append(b.NotRendered, NotRendered{Source: unTmp.Replace(n.Source), Reason: unTmp.Replace(n.Reason)})
	}
	return nil
}

// TargetNotChecked is DeployerAt's answer for a target the base lists but
// does not check, as its listing says (its source in another repository,
// a path the base does not have): its base renders nothing, for that
// reason.
type TargetNotChecked struct {
	// Object is the file of its controller's object at the base.
	Object, Reason string
}

func (e *TargetNotChecked) Error() string { return e.Object + ": not checked: " + e.Reason }

// errNoTarget is renderIn's answer when DeployerAt finds no such target.
var errNoTarget = errors.New("no such target at the base")

func (b *Base) add(objs []model.Object, charts []delivery.ChartPin) {
	for _, o := range objs {
		b.objects[o.ID] = o
	}
	b.Charts = charts
}

// sameAtBase tells whether the base renders what the head rendered without
// rendering it: every file the head's render read is unchanged at the
// commit, no folder it listed changed, and it read nothing outside the
// repository. The render is a function of those files (the same config,
// no controller's object, which the base reads from its own tree): the
// same files render the same objects. A monorepo's pull request leaves
// most targets so, and a base rendered again is as much work as the head.
func sameAtBase(ctx context.Context, trees *gitexec.Trees, top, commit string, head *Head) bool {
	if head == nil || head.Reads == nil {
		return false
	}
	files, dirs, outside := head.Reads.Relative(top)
	if outside > 0 || len(files) == 0 {
		return false
	}
	// Not known to be the same: rendered, which says what is wrong if
	// anything is.
	return trees.Unchanged(ctx, top, commit, files, dirs)
}

// sparseDirs are the folders of the base's tree a render of the head's
// files needs: every folder the head's render read a file of or listed,
// and the paths'. The base's own files may name others (a pull request
// that drops a resource): its render then fails or leaves something out,
// and the whole tree is read instead. nil: read the whole tree (a
// controller's object is read from it; a render that read outside the
// repository).
func sparseDirs(top string, rels []string, of BaseOf) []string {
	if of.Head == nil || of.Head.Reads == nil || of.Options.Deployer != nil || of.DeployerAt != nil {
		return nil
	}
	files, dirs, outside := of.Head.Reads.Relative(top)
	if outside > 0 {
		return nil
	}
	out := append([]string{}, dirs...)
	for _, f := range files {
		out = append(out, path.Dir(f))
	}
	for _, r := range rels {
		r = filepath.ToSlash(r)
		out = append(out, r, path.Dir(r))
	}
	return out
}

// renderIn renders the paths rels (relative to the top) of the base's
// tree extracted at tmp; complete is false when the render left
// something out.
func renderIn(ctx context.Context, tmp string, rels []string, of BaseOf) (Result, bool, error) {
	opts := of.Options
	if opts.Deployer != nil && of.DeployerAt != nil {
		d, at, err := of.DeployerAt(ctx, tmp)
		var nc *TargetNotChecked
		switch {
		case errors.As(err, &nc):
			return Result{NotRendered: []NotRendered{{Source: nc.Object, Reason: nc.Reason}}}, true, nil
		case err != nil:
			return Result{}, false, err
		case d == nil:
			return Result{}, true, errNoTarget
		}
		opts.Deployer, rels = d, at
	}
	// The base's tree is a commit's content like the head's: asked about
	// through the one confined reader.
	tree, err := repofs.Open(tmp, tmp)
	if err != nil {
		return Result{}, false, err
	}
	var basePaths []string
	for _, rel := range rels {
		at := filepath.Join(tmp, filepath.FromSlash(rel))
		if _, err := tree.Lstat(at); err == nil {
			basePaths = append(basePaths, at)
		}
	}
	tree.Close()
	if len(basePaths) == 0 {
		return Result{}, true, nil
	}
	opts.Root, opts.Reads = tmp, nil
	// What the base could not render is absent from it, as from the head
	// (the head says why in its notes).
	r, err := RenderAll(ctx, basePaths, opts)
	if err != nil {
		// Name files as the repository does, not by the temporary copy.
		return Result{}, false, renamed(tmp, err)
	}
	return r, len(r.NotRendered) == 0, nil
}

// UnresolvedError is a base revision that names no commit: a mistyped
// --base, or a base commit that could not be fetched. Unlike a base that
// does not render, it fails the run, because a check that quietly judged
// every finding as the pull request's would pass on a typo.
type UnresolvedError struct{ Err error }

func (e *UnresolvedError) Error() string { return "does not resolve to a commit: " + e.Err.Error() }
func (e *UnresolvedError) Unwrap() error { return e.Err }

// renamedError says err in the repository's names of files, not the
// temporary copy's, and keeps err for errors.Is and As.
type renamedError struct {
	msg string
	err error
}

// renamed is err with the files of the tree extracted at tmp named as
// the repository names them.
func renamed(tmp string, err error) error {
	return &renamedError{msg: strings.NewReplacer(tmp+string(filepath.Separator), "", tmp, ".").Replace(err.Error()), err: err}
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }
