package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"golang.org/x/sync/errgroup"
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

// readHistory reads the last `last` recorded deploys of env (all when
// last <= 0) at a commit of the branch ("" = the tip).
func readHistory(ctx context.Context, store *snapshot.Store, env, commit string, last int) (*history.Log, error) {
	files, c, err := store.ReadLog(ctx, history.Folder(env), commit, last)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", env, err)
	}
	return history.NewLog(env, store.Branch(), c, logFiles(files)), nil
}

// logFiles are a log folder's files as the history reads them.
func logFiles(files []snapshot.LogFile) []history.File {
	hf := make([]history.File, len(files))
	for i, f := range files {
		hf[i] = history.File{Name: f.Name, Data: f.Data}
	}
	return hf
}

// History reads every recorded deploy of the target's environment, for
// `ownership-check history`. A file that cannot be read is an error here:
// a timeline with holes would misstate what happened.
func History(ctx context.Context, t Target) (*history.Log, error) {
	if t.Environment == "" {
		t.Environment = "default"
	}
	if err := snapshot.ValidateEnvironment(t.Environment); err != nil {
		return nil, &InputError{Input: "environment", Problem: err.Error()}
	}
	store, err := snapshot.Open(ctx, t.SnapshotRepo, t.SnapshotBranch)
	if err != nil {
		return nil, fmt.Errorf("snapshot store: %w (set --snapshot-repo to the repository holding branch %s)", err, t.SnapshotBranch)
	}
	defer store.Close()
	l, err := readHistory(ctx, store, t.Environment, "", 0)
	if err != nil {
		return nil, err
	}
	if len(l.Unreadable) > 0 {
		return nil, errors.Join(l.Unreadable...)
	}
	return l, nil
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

// renderedSources are the rendered objects of the kinds that set up known
// controllers: all that controllers.NewSet reads of a render, kept where
// the set is made after the render is let go.
func renderedSources(objs []model.Object) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range objs {
		if controllers.Sources(schema.GroupKind{Group: o.ID.Group, Kind: o.ID.Kind}) {
			out = append(out, o.Object)
		}
	}
	return out
}

// apiVersions are the rendered objects' apiVersions.
func apiVersions(objs []model.Object) map[model.ID]string {
	out := make(map[model.ID]string, len(objs))
	for _, o := range objs {
		out[o.ID] = o.Object.GetAPIVersion()
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
func (t Target) discoverAsync(ctx context.Context, g *errgroup.Group, c *kube.Client, objs []model.Object, concurrency int) <-chan discovered {
	ch := make(chan discovered, 1)
	// Now: run lets go of objs' objects.
	namespaces := controllers.Namespaces(objs)
	g.Go(func() error {
		ch <- t.State.Controllers(ctx, c, namespaces, concurrency)
		return nil
	})
	return ch
}

// recordDeploy appends the report's findings to the environment's history
// and says so in the report.
func recordDeploy(ctx context.Context, o Options, rep *report.Report) error {
	store, err := snapshot.Open(ctx, o.SnapshotRepo, o.SnapshotBranch)
	if err != nil {
		return fmt.Errorf("recording the deploy: snapshot store: %w", err)
	}
	defer store.Close()
	d := deployOf(rep, time.Now(), sourceCommit(ctx, o.SourceCommit))
	f, err := history.Encode(d)
	if err != nil {
		return fmt.Errorf("recording the deploy: %w", err)
	}
	source := d.SourceCommit
	if source == "" {
		source = "an unknown commit"
	}
	commit, err := store.AppendLog(ctx, history.Folder(d.Environment), f.Name, f.Data, history.Keep,
		fmt.Sprintf("history %s: deploy of %s", d.Environment, source))
	if err != nil {
		return fmt.Errorf("recording the deploy: history: %w", err)
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("recorded in the history of %s: %s/%s, commit %s of branch %s",
		o.Environment, history.Folder(d.Environment), f.Name, model.ShortCommit(commit), store.Branch()))
	return nil
}

// deployOf reduces a check's report to the deploy record: object, path,
// category, managers, controller and reason of every finding. Values,
// messages and remedies are left out, so nothing a Secret holds (and
// nothing a message quotes) can reach the branch.
func deployOf(rep *report.Report, at time.Time, sourceCommit string) *history.Deploy {
	d := &history.Deploy{
		Environment:  rep.Environment,
		RecordedAt:   at,
		SourceCommit: sourceCommit,
		FieldManager: rep.FieldManager,
		ToolVersion:  rep.Tool.Version,
		Objects:      []history.Object{},
	}
	for _, o := range rep.Objects {
		if len(o.Findings) == 0 {
			continue
		}
		ro := history.Object{ID: o.ID(), Findings: make([]history.Finding, 0, len(o.Findings))}
		for _, f := range o.Findings {
			r := history.Finding{Category: f.Category, Path: f.Path, Reason: f.Reason, Cause: f.Cause}
			r.Managers = append(r.Managers, f.Managers...)
			for _, ow := range f.Owners {
				r.Managers = append(r.Managers, ow.Manager)
			}
			if f.Controller != nil {
				c := *f.Controller
				r.Controller = &c
			}
			ro.Findings = append(ro.Findings, r)
		}
		d.Objects = append(d.Objects, ro)
	}
	return d
}
