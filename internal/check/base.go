package check

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// baseRender is what the pull request's base desires: the same paths,
// rendered with the same config and rules at the base revision.
type baseRender struct {
	// Commit is the base revision's commit id.
	Commit  string
	objects map[model.ID]model.Object
	// sameAsHead are the objects the head renders exactly as the base
	// does; objects holds no copy of them (in most pull requests, most).
	sameAsHead map[model.ID]bool
	// unchanged: the head renders exactly what the base renders.
	unchanged bool
	// Err is why the base could not be rendered; causes are unknown then.
	Err error
}

// object is the base's object id, and whether the base renders it; an
// object the head renders the same gives the head's.
func (b *baseRender) object(id model.ID, head *unstructured.Unstructured) (*unstructured.Unstructured, bool) {
	if b.sameAsHead[id] {
		return head, true
	}
	o, ok := b.objects[id]
	return o.Object, ok
}

// forgetSame lets go of the base's copies of the objects head renders the
// same, and tells whether head renders exactly what the base renders.
func (b *baseRender) forgetSame(head []model.Object) (unchanged bool) {
	b.sameAsHead = map[model.ID]bool{}
	for _, o := range head {
		if bo, ok := b.objects[o.ID]; ok && model.EqualValues(o.Object.Object, bo.Object.Object) {
			b.sameAsHead[o.ID] = true
			delete(b.objects, o.ID)
		}
	}
	return len(b.objects) == 0 && len(b.sameAsHead) == len(head)
}

// renderBase renders paths as revision rev has them. The tree is read
// straight from git objects (ls-tree and cat-file) into a temporary
// directory, without a checkout, the index or the network (a missing
// base commit of a depth-1 checkout is fetched alone, as for the config),
// and rendered with opts: the same config, the same kustomize rules, the
// repository's tree as the boundary. A path the base does not have renders
// nothing.
func renderBase(ctx context.Context, rev string, paths []string, opts render.Options, trees *gitexec.Trees, deployerAt deployerAt, head *headRender) *baseRender {
	b := &baseRender{objects: map[model.ID]model.Object{}}
	b.Err = b.render(ctx, rev, paths, opts, trees, deployerAt, head)
	if b.Err != nil {
		b.Err = fmt.Errorf("base %s: %w", rev, b.Err)
	}
	return b
}

// deployerAt is Target.BaseDeployer.
type deployerAt = func(ctx context.Context, root string) (*model.Deployer, []string, error)

// renderHead renders the paths for the check, and with a base, what the
// base needs of the head's render: what it read, and a copy of the list
// of its objects (the check lets each go once analysed).
func renderHead(ctx context.Context, o Options, opts render.Options) ([]model.Object, []string, *headRender, error) {
	var head *headRender
	if o.Base != "" {
		opts.Reads = render.NewReads()
		head = &headRender{reads: opts.Reads}
	}
	done, err := o.State.RenderTurn(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	objs, unrendered, err := renderChecked(ctx, o.Paths, opts)
	done()
	if err != nil {
		return nil, nil, nil, err
	}
	if head != nil {
		head.objs = slices.Clone(objs)
	}
	return objs, unrendered, head, nil
}

// headRender is the head's render of the same paths, and every file and
// listing it read.
type headRender struct {
	reads *render.Reads
	objs  []model.Object
}

// sameAtBase tells whether the base renders what the head rendered without
// rendering it: every file the head's render read is one the commit
// tracks, unchanged in the working tree since, nothing was added to or
// removed from a folder it listed, and it read nothing outside the
// repository. The render is a function of those files (the same config,
// no controller's object, which the base reads from its own tree): the
// same files render the same objects. A monorepo's pull request leaves
// most targets so, and a base rendered again is as much work as the head.
func sameAtBase(ctx context.Context, trees *gitexec.Trees, top, commit string, head *headRender) bool {
	if head == nil || head.reads == nil {
		return false
	}
	files, dirs, outside := head.reads.Relative(top)
	if outside > 0 || len(files) == 0 {
		return false
	}
	ch, err := trees.Changes(ctx, top, commit)
	if err != nil {
		// Rendered instead, which says what is wrong if anything is.
		return false
	}
	for _, f := range files {
		if !ch.Tracked[f] || ch.Changed[f] != 0 {
			return false
		}
	}
	listed := make(map[string]bool, len(dirs))
	for _, d := range dirs {
		listed[d] = true
	}
	for p, status := range ch.Changed {
		if status != 'M' && listed[path.Dir(p)] {
			return false
		}
	}
	return true
}

func (b *baseRender) render(ctx context.Context, rev string, paths []string, opts render.Options, trees *gitexec.Trees, deployerAt deployerAt, head *headRender) error {
	if len(paths) == 0 {
		return nil
	}
	top := trees.Top
	var err error
	if top == "" {
		if top, err = repositoryOf(ctx, paths[0]); err != nil {
			return err
		}
	}
	b.Commit, err = trees.Resolved(ctx, top, rev, func(ctx context.Context) (string, error) {
		if err := config.EnsureCommit(ctx, top, rev); err != nil {
			return "", &unresolvedError{err}
		}
		out, err := gitexec.Run(ctx, gitexec.Where{Dir: top}, nil, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
		if err != nil {
			return "", &unresolvedError{err}
		}
		return strings.TrimSpace(string(out)), nil
	})
	if err != nil {
		return err
	}
	if opts.Deployer == nil && deployerAt == nil && sameAtBase(ctx, trees, top, b.Commit, head) {
		for _, o := range head.objs {
			b.objects[o.ID] = o
		}
		return nil
	}
	var rels []string
	for _, p := range paths {
		rel, err := gitexec.Relative(top, p)
		if err != nil {
			return err
		}
		rels = append(rels, rel)
	}
	if dirs := sparseDirs(top, rels, head, opts, deployerAt); dirs != nil {
		if tmp, err := trees.Sparse(ctx, top, b.Commit, dirs); err == nil {
			objs, complete, err := renderIn(ctx, tmp, rels, opts, deployerAt)
			if err == nil && complete {
				b.add(objs)
				return nil
			}
		}
		// The base reads what the head does not: from the whole tree.
	}
	tmp, err := trees.Tree(ctx, top, b.Commit)
	if err != nil {
		return err
	}
	objs, _, err := renderIn(ctx, tmp, rels, opts, deployerAt)
	if err != nil {
		return err
	}
	b.add(objs)
	return nil
}

func (b *baseRender) add(objs []model.Object) {
	for _, o := range objs {
		b.objects[o.ID] = o
	}
}

// sparseDirs are the folders of the base's tree a render of the head's
// files needs: every folder the head's render read a file of or listed,
// and the paths'. The base's own files may name others (a pull request
// that drops a resource): its render then fails or leaves something out,
// and the whole tree is read instead. nil: read the whole tree (a
// controller's object is read from it; a render that read outside the
// repository).
func sparseDirs(top string, rels []string, head *headRender, opts render.Options, deployerAt deployerAt) []string {
	if head == nil || head.reads == nil || opts.Deployer != nil || deployerAt != nil {
		return nil
	}
	files, dirs, outside := head.reads.Relative(top)
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
func renderIn(ctx context.Context, tmp string, rels []string, opts render.Options, deployerAt deployerAt) ([]model.Object, bool, error) {
	if opts.Deployer != nil && deployerAt != nil {
		d, at, err := deployerAt(ctx, tmp)
		if err != nil {
			return nil, false, err
		}
		if d == nil {
			return nil, true, nil
		}
		opts.Deployer, rels = d, at
	}
	var basePaths []string
	for _, rel := range rels {
		at := filepath.Join(tmp, filepath.FromSlash(rel))
		if _, err := os.Lstat(at); err == nil {
			basePaths = append(basePaths, at)
		}
	}
	if len(basePaths) == 0 {
		return nil, true, nil
	}
	opts.Root = tmp
	// What the base could not render is absent from it, as from the head
	// (the head says why in its notes).
	r, err := render.RenderAll(ctx, basePaths, opts)
	if err != nil {
		// Name files as the repository does, not by the temporary copy.
		return nil, false, &renamedError{msg: strings.NewReplacer(tmp+string(filepath.Separator), "", tmp, ".").Replace(err.Error()), err: err}
	}
	return r.Objects, len(r.NotRendered) == 0, nil
}

// repositoryOf is the top of the git repository holding path.
func repositoryOf(ctx context.Context, path string) (string, error) {
	top, err := gitexec.RepositoryOf(ctx, path)
	if err != nil {
		return "", fmt.Errorf("%s: not in a git repository, so there is no base to render: %w", path, err)
	}
	return top, nil
}

// unresolvedError is a base revision that names no commit: a mistyped
// --base, or a base commit that could not be fetched. Unlike a base that
// does not render, it fails the run, because a check that quietly judged
// every finding as the pull request's would pass on a typo.
type unresolvedError struct{ err error }

func (e *unresolvedError) Error() string { return "does not resolve to a commit: " + e.err.Error() }
func (e *unresolvedError) Unwrap() error { return e.err }

// renamedError says err in the repository's names of files, not the
// temporary copy's, and keeps err for errors.Is and As.
type renamedError struct {
	msg string
	err error
}

func (e *renamedError) Error() string { return e.msg }
func (e *renamedError) Unwrap() error { return e.err }

// renderBaseAsync renders the base beside the head, in g; the channel
// gives nil when there is no base to render.
func renderBaseAsync(ctx context.Context, g *errgroup.Group, rev string, paths []string, opts render.Options, trees *gitexec.Trees, deployerAt deployerAt, head *headRender) <-chan *baseRender {
	ch := make(chan *baseRender, 1)
	if rev == "" {
		ch <- nil
		return ch
	}
	g.Go(func() error {
		ch <- renderBase(ctx, rev, paths, opts, trees, deployerAt, head)
		return nil
	})
	return ch
}

// comparedAsync hands on the base once compared with head (forgetSame), as
// soon as it is rendered: until then the run holds two renders.
func comparedAsync(g *errgroup.Group, base <-chan *baseRender, head []model.Object) <-chan *baseRender {
	// A list of its own: run lets go of the caller's objects.
	head = slices.Clone(head)
	ch := make(chan *baseRender, 1)
	g.Go(func() error {
		b := <-base
		if b != nil && b.Err == nil {
			b.unchanged = b.forgetSame(head)
		}
		ch <- b
		return nil
	})
	return ch
}

// withBase sets what causes are judged by: the base render, the causes
// that may fail the check, and whether the head renders exactly the base.
// A base that could not be rendered leaves causes unknown, and says why;
// a base that names no commit is an error.
func (in analysis) withBase(base *baseRender, causes model.CausePolicy) (analysis, error) {
	in.Base = base
	in.FailsCause = func(c model.Cause) bool { return causes[c] }
	if base == nil {
		return in, nil
	}
	if base.Err != nil {
		if unresolved := (*unresolvedError)(nil); errors.As(base.Err, &unresolved) {
			return in, fmt.Errorf("--%w", base.Err)
		}
		in.Notes = append(slices.Clip(in.Notes), fmt.Sprintf("%v: every finding's cause is unknown, and judged as this pull request's", base.Err))
		return in, nil
	}
	in.Unchanged = base.unchanged
	return in, nil
}
