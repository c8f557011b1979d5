package check

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
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
func renderBase(ctx context.Context, rev string, paths []string, opts render.Options, trees *baseTrees) *baseRender {
	b := &baseRender{objects: map[model.ID]model.Object{}}
	b.Err = b.render(ctx, rev, paths, opts, trees)
	if b.Err != nil {
		b.Err = fmt.Errorf("base %s: %w", rev, b.Err)
	}
	return b
}

func (b *baseRender) render(ctx context.Context, rev string, paths []string, opts render.Options, trees *baseTrees) error {
	if len(paths) == 0 {
		return nil
	}
	top, err := repositoryOf(ctx, paths[0])
	if err != nil {
		return err
	}
	if err := config.EnsureCommit(ctx, top, rev); err != nil {
		return err
	}
	out, err := gitexec.Output(ctx, gitexec.Where{Dir: top}, "rev-parse", "--verify", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return err
	}
	b.Commit = strings.TrimSpace(string(out))
	if trees == nil {
		// One target: its own copy of the tree, gone when it is rendered.
		trees = &baseTrees{}
		defer trees.close()
	}
	tmp, err := trees.tree(ctx, top, b.Commit)
	if err != nil {
		return err
	}
	var basePaths []string
	for _, p := range paths {
		rel, err := relativeTo(top, p)
		if err != nil {
			return err
		}
		at := filepath.Join(tmp, rel)
		if _, err := os.Lstat(at); err == nil {
			basePaths = append(basePaths, at)
		}
	}
	if len(basePaths) == 0 {
		return nil
	}
	opts.Root = tmp
	objs, err := render.Render(ctx, basePaths, opts)
	if err != nil {
		// Name files as the repository does, not by the temporary copy.
		return fmt.Errorf("%s", strings.NewReplacer(tmp+string(filepath.Separator), "", tmp, ".").Replace(err.Error()))
	}
	for _, o := range objs {
		b.objects[o.ID] = o
	}
	return nil
}

// repositoryOf is the top of the git repository holding path.
func repositoryOf(ctx context.Context, path string) (string, error) {
	dir := path
	if info, err := os.Stat(path); err != nil || !info.IsDir() {
		dir = filepath.Dir(path)
	}
	top, err := gitexec.TopLevel(ctx, dir)
	if err != nil {
		return "", fmt.Errorf("%s: not in a git repository, so there is no base to render: %w", path, err)
	}
	return top, nil
}

// relativeTo gives path relative to the repository top, refusing one
// outside it.
func relativeTo(top, path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git repository %s", path, top)
	}
	return rel, nil
}

// extractTree writes commit's files into dir: regular files and symlinks
// (rendering refuses a symlink that leaves dir); submodules are left out.
func extractTree(ctx context.Context, top, commit, dir string) error {
	where := gitexec.Where{Dir: top}
	list, err := gitexec.Output(ctx, where, "ls-tree", "-r", "-z", "--full-tree", commit)
	if err != nil {
		return err
	}
	all, err := gitexec.ParseTree(list)
	if err != nil {
		return err
	}
	var files []gitexec.TreeEntry
	var oids []string
	for _, e := range all {
		if e.Type != "blob" {
			continue
		}
		p := filepath.FromSlash(e.Path)
		if filepath.IsAbs(p) || p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) || strings.Contains(p, string(filepath.Separator)+".."+string(filepath.Separator)) {
			return fmt.Errorf("git ls-tree: path %q leaves the tree", e.Path)
		}
		e.Path = p
		files = append(files, e)
		oids = append(oids, e.OID)
	}
	made := map[string]bool{}
	return gitexec.CatBlobs(ctx, where, oids, func(i int, data []byte) error {
		e := files[i]
		target := filepath.Join(dir, e.Path)
		if parent := filepath.Dir(target); !made[parent] {
			if err := os.MkdirAll(parent, 0o755); err != nil {
				return err
			}
			made[parent] = true
		}
		switch e.Mode {
		case "120000":
			return os.Symlink(string(data), target)
		case "100755":
			return os.WriteFile(target, data, 0o755)
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// renderBaseAsync renders the base beside the head; the channel gives nil
// when there is no base to render.
func renderBaseAsync(ctx context.Context, rev string, paths []string, opts render.Options, trees *baseTrees) <-chan *baseRender {
	ch := make(chan *baseRender, 1)
	if rev == "" {
		ch <- nil
		return ch
	}
	go func() { ch <- renderBase(ctx, rev, paths, opts, trees) }()
	return ch
}

// comparedAsync hands on the base once compared with head (forgetSame), as
// soon as it is rendered: until then the run holds two renders. head must
// not change until the result is received.
func comparedAsync(base <-chan *baseRender, head []model.Object) <-chan *baseRender {
	ch := make(chan *baseRender, 1)
	go func() {
		b := <-base
		if b != nil && b.Err == nil {
			b.unchanged = b.forgetSame(head)
		}
		ch <- b
	}()
	return ch
}

// baseTrees are the base commits' trees read out of git for one run: a
// run of many targets reads each once, and removes them when it ends.
type baseTrees struct {
	mu    sync.Mutex
	trees map[string]*baseTree
}

type baseTree struct {
	once sync.Once
	dir  string
	err  error
}

// tree is commit's tree in a temporary directory, read on first use.
func (bt *baseTrees) tree(ctx context.Context, top, commit string) (string, error) {
	bt.mu.Lock()
	if bt.trees == nil {
		bt.trees = map[string]*baseTree{}
	}
	t := bt.trees[top+"\x00"+commit]
	if t == nil {
		t = &baseTree{}
		bt.trees[top+"\x00"+commit] = t
	}
	bt.mu.Unlock()
	t.once.Do(func() {
		if t.dir, t.err = os.MkdirTemp("", "ownership-check-base-"); t.err != nil {
			return
		}
		t.err = extractTree(ctx, top, commit, t.dir)
	})
	return t.dir, t.err
}

// close removes every tree read.
func (bt *baseTrees) close() {
	bt.mu.Lock()
	defer bt.mu.Unlock()
	for _, t := range bt.trees {
		if t.dir != "" {
			os.RemoveAll(t.dir)
		}
	}
}

// withBase sets what causes are judged by: the base render, the causes
// that may fail the check, and whether the head renders exactly the base.
// A base that could not be rendered leaves causes unknown, and says why.
func (in analysis) withBase(base *baseRender, causes CausePolicy) analysis {
	in.Base = base
	in.FailsCause = func(c model.Cause) bool { return causes[c] }
	if base == nil {
		return in
	}
	if base.Err != nil {
		in.Notes = append(slices.Clip(in.Notes), fmt.Sprintf("%v: every finding's cause is unknown, and judged as this pull request's", base.Err))
		return in
	}
	in.Unchanged = base.unchanged
	return in
}
