package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/controllers"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// What a check reads beyond one deploy (the recorded history, the
// controllers set up in the cluster) and what `check --record` writes.

// readState reads the environment's snapshot and the last history.Window
// recorded deploys at one commit of the snapshot branch. No snapshot is a
// nil snapshot, no history an empty log; an unreadable snapshot is an
// error (comparing against nothing would hide drift), unreadable history
// files are listed in the log.
func readState(ctx context.Context, t Target) (*snapshot.Snapshot, *history.Log, error) {
	store, err := snapshot.Open(ctx, t.SnapshotRepo, t.SnapshotBranch)
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", err, t.SnapshotBranch)
	}
	defer store.Close()
	tip, err := store.Tip(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot: %w", err)
	}
	if tip == "" {
		return nil, &history.Log{Environment: t.Environment, Branch: store.Branch()}, nil
	}
	snap, err := store.Read(ctx, t.Environment, tip)
	if errors.Is(err, snapshot.ErrNotFound) {
		snap, err = nil, nil
	}
	if err != nil {
		return nil, nil, fmt.Errorf("snapshot: %w", err)
	}
	hist, err := history.Read(ctx, store, t.Environment, tip, history.Window)
	if err != nil {
		return nil, nil, err
	}
	return snap, hist, nil
}

// withHistory adds the recorded deploys, the controllers' claims and the
// rendered paths to a check's analysis; unreadable history files become
// notes (the history only adds escalations: the check goes on without
// them).
func (in analysis) withHistory(hist *history.Log, set *controllers.Set, paths []string, notes []string) analysis {
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

// sources keeps the objects of the kinds that set up known controllers.
func sources(objs []*unstructured.Unstructured) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, u := range objs {
		if u != nil {
			gvk := u.GroupVersionKind()
			if controllers.Sources(schema.GroupKind{Group: gvk.Group, Kind: gvk.Kind}) {
				out = append(out, u)
			}
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
	for _, e := range snap.Objects {
		out = append(out, e.Deployed)
	}
	return sources(out)
}

type discovered struct {
	objs  []*unstructured.Unstructured
	notes []string
}

// discoverAsync lists the cluster's autoscalers (and the other rules'
// sources) in the render's namespaces while the dry-runs go out.
func discoverAsync(ctx context.Context, c *kube.Client, objs []model.Object, concurrency int) <-chan discovered {
	ch := make(chan discovered, 1)
	go func() {
		found, notes := controllers.Discover(ctx, c, controllers.Namespaces(objs), concurrency)
		ch <- discovered{found, notes}
	}()
	return ch
}

// recordDeploy appends the report's findings to the environment's history
// and says so in the report.
func recordDeploy(ctx context.Context, o Options, rep *report.Report) error {
	store, err := snapshot.Open(ctx, o.SnapshotRepo, o.SnapshotBranch)
	if err != nil {
		return fmt.Errorf("--record: snapshot store: %w", err)
	}
	defer store.Close()
	d := history.FromReport(rep, time.Now(), sourceCommit(ctx, o.SourceCommit))
	commit, err := history.Record(ctx, store, d)
	if err != nil {
		return fmt.Errorf("--record: %w", err)
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("recorded in the history of %s: %s, commit %s of branch %s", o.Environment, d.File, shortCommit(commit), store.Branch()))
	return nil
}
