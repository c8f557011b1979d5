package render

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// fakeSource stands for a source the next issues add (a GitOps tool's
// object): it claims single.yaml, makes one object and says what it
// cannot render.
type fakeSource struct {
	in       *source.Input
	prepared []string
}

func (f *fakeSource) Prepare(_ context.Context, p source.Path) (source.Build, error) {
	f.prepared = append(f.prepared, p.Given)
	f.in.ReadFile(p.Real)
	return fakeBuild{}, nil
}

type fakeBuild struct{}

func (fakeBuild) Size() int { return 0 }

func (fakeBuild) Run(context.Context) (source.Output, error) {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion("v1")
	u.SetKind("ConfigMap")
	u.SetName("from-the-fake")
	return source.Output{
		Objects:     []model.Object{{Object: u, Source: "testdata/render/single.yaml", Line: 3}},
		NotRendered: []source.NotRendered{{Source: "testdata/render/single.yaml:7", Reason: "source in another repository"}},
	}, nil
}

func TestSourceTableChoosesAPluggedSource(t *testing.T) {
	inRepoRoot(t)
	fake := &fakeSource{}
	rows := append([]sourceRow{{
		name:   "fake",
		claims: func(p source.Path, _ *delivery.Deployer) bool { return filepath.Base(p.Abs) == "single.yaml" },
		source: func(in *source.Input) source.Source { fake.in = in; return fake },
	}}, sourceTable...)
	paths := []string{"testdata/render/single.yaml", "testdata/render/plain"}
	reads := source.NewReads()
	r, err := renderWith(context.Background(), paths, Options{Namespace: "apps", Reads: reads}, rows)
	if err != nil {
		t.Fatal(err)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	if files, _, _ := reads.Relative(cwd); !slices.Contains(files, "testdata/render/single.yaml") {
		t.Errorf("what the fake read is not recorded: %q", files)
	}
	if !slices.Equal(fake.prepared, []string{"testdata/render/single.yaml"}) {
		t.Errorf("the fake prepared %q, want single.yaml alone", fake.prepared)
	}
	var fromFake, fromYAML int
	for _, o := range r.Objects {
		switch {
		case o.ID.Name == "from-the-fake":
			fromFake++
			if o.ID.Namespace != "apps" || o.Line != 3 {
				t.Errorf("the fake's object is %s at line %d: Render must give it the namespace and keep its line", o.ID, o.Line)
			}
		case o.Source == "testdata/render/single.yaml":
			t.Errorf("%s came from single.yaml through YAML: the fake claimed it", o.ID)
		default:
			fromYAML++
		}
	}
	if fromFake != 1 || fromYAML == 0 {
		t.Errorf("got %d objects of the fake and %d of the plain directory, want 1 and some", fromFake, fromYAML)
	}
	want := []source.NotRendered{{Source: "testdata/render/single.yaml:7", Reason: "source in another repository"}}
	if !slices.Equal(r.NotRendered, want) {
		t.Errorf("NotRendered = %v, want %v", r.NotRendered, want)
	}

	// Render, which cannot report it, fails closed with it.
	_, err = failClosed(renderWith(context.Background(), paths, Options{Namespace: "apps"}, rows))
	var nre *source.NotRenderedError
	if !errors.As(err, &nre) || err.Error() != "testdata/render/single.yaml:7: not rendered: source in another repository" {
		t.Errorf("Render through the fake: %v, want a *NotRenderedError naming single.yaml:7", err)
	}
}
