package check

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// What a check reads beyond one deploy: the recorded history, the
// controllers set up in the cluster.

// History reads every recorded deploy of the target's environment, for
// `ownership-check history` (runstate.History).
func History(ctx context.Context, t Target) (*history.Log, error) {
	if t.Environment == "" {
		t.Environment = "default"
	}
	if err := snapshot.ValidateEnvironment(t.Environment); err != nil {
		return nil, &InputError{Input: "environment", Problem: err.Error()}
	}
	return runstate.History(ctx, t.Branch(), t.Environment)
}

// withHistory adds the recorded deploys, the controllers' claims and the
// rendered paths to a check's input; unreadable history files become
// notes (the history only adds escalations: the check goes on without
// them).
func withHistory(in judge.Input, hist *history.Log, set *controllers.Set, paths []string, notes []string) judge.Input {
	in.History = hist.Index()
	in.Controllers = set
	in.RenderPaths = paths
	if hist != nil {
		for _, err := range hist.Unreadable {
			in.Notes = append(in.Notes, fmt.Sprintf("history: %v; left out when counting persistent fights", err))
		}
	}
	in.Notes = append(in.Notes, notes...)
	return in
}

// apiVersions are the rendered objects' apiVersions.
func apiVersions(objs []model.Object) map[model.ID]string {
	out := make(map[model.ID]string, len(objs))
	for _, o := range objs {
		out[o.ID] = o.Object.GetAPIVersion()
	}
	return out
}

// groupVersions lists the group-versions of the rendered objects.
func groupVersions(objs []model.Object) []schema.GroupVersion {
	seen := map[schema.GroupVersion]bool{}
	var out []schema.GroupVersion
	for _, o := range objs {
		gv := o.Object.GroupVersionKind().GroupVersion()
		if !seen[gv] {
			seen[gv] = true
			out = append(out, gv)
		}
	}
	return out
}

func renderedObjects(objs []model.Object) []*unstructured.Unstructured {
	out := make([]*unstructured.Unstructured, len(objs))
	for i, o := range objs {
		out[i] = o.Object
	}
	return out
}

// snapshotSources are the snapshot's deployed objects that set up known
// controllers: what the offline engine knows of the cluster's.
func snapshotSources(snap *snapshot.Snapshot) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for id := range snap.Objects {
		if !controllers.Sources(schema.GroupKind{Group: id.Group, Kind: id.Kind}) {
			continue
		}
		if e, err := snap.Entry(id); err == nil && e != nil {
			out = append(out, e.Deployed)
		}
	}
	return out
}

// discoverAsync lists the cluster's autoscalers (and the other rules'
// sources) in the render's namespaces, in g, while the dry-runs go out.
func (t Target) discoverAsync(ctx context.Context, g *errgroup.Group, c *kube.Client, objs []model.Object, concurrency int) <-chan runstate.Discovered {
	ch := make(chan runstate.Discovered, 1)
	// Now: run lets go of objs' objects.
	namespaces := controllers.Namespaces(objs)
	g.Go(func() error {
		ch <- t.Run.Controllers(ctx, c, namespaces, concurrency)
		return nil
	})
	return ch
}
