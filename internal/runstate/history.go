package runstate

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// The deploy history on a snapshot branch: history owns its format and
// reads no file, snapshot's store reads and writes them.

// logFiles are a log folder's files as the history reads them.
func logFiles(files []snapshot.LogFile) []history.File {
	hf := make([]history.File, len(files))
	for i, f := range files {
		hf[i] = history.File{Name: f.Name, Data: f.Data}
	}
	return hf
}

// History reads every recorded deploy of env on b. A file that cannot be
// read is an error here: a timeline with holes would misstate what
// happened.
func History(ctx context.Context, b Branch, env string) (*history.Log, error) {
	store, err := b.open(ctx)
	if err != nil {
		return nil, err
	}
	defer store.Close()
	files, c, err := store.ReadLog(ctx, history.Folder(env), "", 0)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", env, err)
	}
	l := history.NewLog(env, store.Branch(), c, logFiles(files))
	if len(l.Unreadable) > 0 {
		return nil, errors.Join(l.Unreadable...)
	}
	return l, nil
}

// Record appends the report's findings to its environment's history on b,
// made from source (else the working directory's HEAD), and says so in
// the report.
func Record(ctx context.Context, b Branch, rep *report.Report, source string) error {
	store, err := snapshot.Open(ctx, b.Repo, b.Name)
	if err != nil {
		return fmt.Errorf("recording the deploy: snapshot store: %w", err)
	}
	defer store.Close()
	d := deployOf(rep, time.Now(), sourceCommit(ctx, source))
	f, err := history.Encode(d)
	if err != nil {
		return fmt.Errorf("recording the deploy: %w", err)
	}
	source = d.SourceCommit
	if source == "" {
		source = "an unknown commit"
	}
	commit, err := store.AppendLog(ctx, history.Folder(d.Environment), f.Name, f.Data, history.Keep,
		fmt.Sprintf("history %s: deploy of %s", d.Environment, source))
	if err != nil {
		return fmt.Errorf("recording the deploy: history: %w", err)
	}
	rep.Notes = append(rep.Notes, fmt.Sprintf("recorded in the history of %s: %s/%s, commit %s of branch %s",
		rep.Environment, history.Folder(d.Environment), f.Name, model.ShortCommit(commit), store.Branch()))
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
