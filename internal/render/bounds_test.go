package render

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestTimeBound: a render still under way when its time bound passes is
// not rendered, with the bound as the reason, whatever it made; a render
// whose caller gave up is the caller's error, not the bound.
func TestTimeBound(t *testing.T) {
	waits := func(ctx context.Context) (Result, error) {
		<-ctx.Done()
		return Result{Objects: []model.Object{{}}}, ctx.Err()
	}
	r, err := timeBound(context.Background(), time.Millisecond, []string{"app"}, waits)
	if err != nil || len(r.Objects) != 0 || len(r.NotRendered) != 1 || r.NotRendered[0].Source != "app" || !strings.Contains(r.NotRendered[0].Reason, "longer than the bound of 5m0s") {
		t.Errorf("%v, %v; want not rendered, the bound named", r, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := timeBound(ctx, time.Hour, []string{"app"}, waits); !errors.Is(err, context.Canceled) {
		t.Errorf("%v, want the caller's cancel", err)
	}
	done := func(context.Context) (Result, error) { return Result{Objects: []model.Object{{}}}, nil }
	if r, err := timeBound(context.Background(), time.Hour, []string{"app"}, done); err != nil || len(r.Objects) != 1 {
		t.Errorf("%v, %v; want the render as it is", r, err)
	}
}

// TestOverRendered: the objects of all the paths of one render count
// against one bound; past it the target is not rendered, named at the
// path that passed it, with what else its sources could not render.
func TestOverRendered(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	in := chartInput(t, nil, nil, ".")
	object := func(bytes int) model.Object {
		return model.Object{Object: &unstructured.Unstructured{Object: map[string]any{"data": map[string]any{"k": strings.Repeat("x", bytes)}}}}
	}
	half := source.MaxRenderedBytes / 2
	jobOf := func(name string, objs ...model.Object) *job {
		return &job{path: source.Path{Abs: filepath.Join(root, name)}, out: source.Output{Objects: objs, NotRendered: []source.NotRendered{{Source: name, Reason: "r"}}}}
	}
	if _, over := overRendered(in, []*job{jobOf("a", object(half)), jobOf("b", object(half-100))}); over {
		t.Error("under the bound: over")
	}
	nr, over := overRendered(in, []*job{jobOf("a", object(half)), jobOf("b", object(half)), jobOf("c")})
	if !over || len(nr) != 4 || nr[0].Source != "b" || !strings.Contains(nr[0].Reason, "more than the bound of 64 MiB a target's render may make") {
		t.Errorf("over the bound: %v, %v", over, nr)
	}
}
