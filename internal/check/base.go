package check

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
)

// The base is rendered by render (render.RenderBase, its tree read by
// gitexec); check starts it beside the head and judges causes by it.

// renderHead renders the paths for the check, and with a base, what the
// base needs of the head's render: what it read, and a copy of the list
// of its objects (the check lets each go once analysed); and the charts it
// released, always (the report names them).
func renderHead(ctx context.Context, o Options, opts render.Options) ([]model.Object, []string, *render.Head, []delivery.ChartPin, error) {
	var head *render.Head
	if o.Base != "" {
		opts.Reads = render.NewReads()
		head = &render.Head{Reads: opts.Reads}
	}
	done, err := o.Run.RenderTurn(ctx)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	objs, unrendered, charts, err := renderChecked(ctx, o.Paths, opts)
	done()
	if err != nil {
		return nil, nil, nil, nil, renderFailed(ctx, err)
	}
	if head != nil {
		head.Objects, head.Charts = slices.Clone(objs), charts
	}
	return objs, unrendered, head, charts, nil
}

// baseRead is the base rendered, or why it could not be.
type baseRead struct {
	base *render.Base
	err  error
	// unchanged: the head renders exactly what the base renders.
	unchanged bool
	// deployer is the controller's object the base was rendered with:
	// what it creates beside its render (deployer.CreatedNamespace) is the base's.
	deployer *delivery.Deployer
}

// renderBaseAsync renders the base beside the head, in g, and hands it
// on once compared with the head's objects (render.Base.Compare), as soon
// as it is rendered: until then the run holds two renders. The channel
// gives nil when there is no base to render.
func renderBaseAsync(ctx context.Context, g *errgroup.Group, o Options, opts render.Options, head *render.Head, objs []model.Object) <-chan *baseRead {
	ch := make(chan *baseRead, 1)
	if o.Base == "" {
		ch <- nil
		return ch
	}
	// A list of its own: run lets go of the caller's objects.
	objs = slices.Clone(objs)
	g.Go(func() error {
		atBase, deployerAt := o.Deployer, o.BaseDeployer
		if deployerAt != nil {
			// RenderBase asks it in this goroutine; its answer is the
			// base's object.
			deployerAt = func(ctx context.Context, root string) (*delivery.Deployer, []string, error) {
				d, paths, err := o.BaseDeployer(ctx, root)
				atBase = d
				return d, paths, err
			}
		}
		b, err := render.RenderBase(ctx, render.BaseOf{Rev: o.Base, Paths: o.Paths, Options: opts,
			Trees: o.Run.Trees(), DeployerAt: deployerAt, Head: head})
		r := &baseRead{base: b, err: err, deployer: atBase}
		if err == nil {
			r.unchanged = b.Compare(objs)
		}
		ch <- r
		return nil
	})
	return ch
}

// withBase sets what causes are judged by: the base render, the causes
// that may fail the check, and whether the head renders exactly the base.
// A base that could not be rendered leaves causes unknown, and says why;
// a base that names no commit is an error.
func withBase(in judge.Input, read *baseRead, causes model.CausePolicy) (judge.Input, error) {
	in.FailsCause = func(c model.Cause) bool { return causes[c] }
	if read == nil {
		return in, nil
	}
	if read.err != nil {
		if unresolved := (*render.UnresolvedError)(nil); errors.As(read.err, &unresolved) {
			return in, fmt.Errorf("--%w", read.err)
		}
		in.Notes = append(slices.Clip(in.Notes), fmt.Sprintf("%v: every finding's cause is unknown, and judged as this pull request's", read.err))
		return in, nil
	}
	in.Base, in.Unchanged = read.base, read.unchanged
	return in, nil
}

// withCreated judges the object the deployer creates beside the head's
// render (deployer.WithCreatedNamespace; none when ok is false) by what the base's
// deployer creates: the pull request's when it turns CreateNamespace on
// or changes the metadata, and no change when both create the same.
func withCreated(in judge.Input, created model.Object, ok bool, read *baseRead) judge.Input {
	if !ok || in.Base == nil || read == nil {
		return in
	}
	var atBase *unstructured.Unstructured
	if o, baseOK := deployer.CreatedNamespace(read.deployer); baseOK && o.ID == created.ID {
		atBase = o.Object
	}
	in.Created = map[model.ID]*unstructured.Unstructured{created.ID: atBase}
	in.Unchanged = in.Unchanged && atBase != nil && model.EqualValues(atBase.Object, created.Object.Object)
	return in
}
