package targets_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]targets.Shard{"": {I: 1, N: 1}, "2/4": {I: 2, N: 4}, "1/1": {I: 1, N: 1}} {
		if got, err := targets.ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0/2", "3/2", "2", "a/b", "1/0"} {
		var ie *check.InputError
		if _, err := targets.ParseShard(in); !errors.As(err, &ie) || ie.Input != "shard" {
			t.Errorf("ParseShard(%q): %v, want a --shard input error", in, err)
		}
	}
}

// TestSelectShards: the shards of a selection partition it, each within
// one of the others' size, and the line says what each left out.
func TestSelectShards(t *testing.T) {
	cfg := &config.Config{}
	for i := range 7 {
		cfg.Targets = append(cfg.Targets, config.Target{Name: fmt.Sprintf("t%d", i), Paths: []string{"p"}})
	}
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		sel, err := targets.Select(context.Background(), cfg, targets.SelectOptions{Names: []string{"all"}, Shard: targets.Shard{I: i, N: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(sel.Targets); n < 2 || n > 3 || sel.Total != 7 || sel.Affected != 7 {
			t.Errorf("shard %d/3: %d of %d (%d affected)", i, n, sel.Total, sel.Affected)
		}
		if want := fmt.Sprintf("%d of 7 targets checked, %d in other shards", len(sel.Targets), 7-len(sel.Targets)); sel.Line() != want {
			t.Errorf("line %q, want %q", sel.Line(), want)
		}
		for _, s := range sel.Targets {
			seen[s.Name]++
		}
	}
	if len(seen) != 7 {
		t.Errorf("shards cover %d targets, want 7: %v", len(seen), seen)
	}
	if _, err := targets.Select(context.Background(), cfg, targets.SelectOptions{Names: []string{"nope"}}); err == nil {
		t.Error("an unknown target was selected")
	}
}

// After the run, the selection line counts what the run did, as the
// coverage line does: a target whose head fails where its base renders
// was checked (its failure is the pull request's), one whose render said
// it cannot be reproduced was not, nor one whose check failed.
func TestSelectionLineAfterTheRun(t *testing.T) {
	named := func(name, reason string) targets.Selected {
		return targets.Selected{Target: targets.Target{Target: config.Target{Name: name}, Reason: reason}}
	}
	sel := targets.Selection{Total: 5, Affected: 4, Targets: []targets.Selected{
		named("head-fails", "spec.path ./apps/missing: no such directory"),
		named("jsonnet", ""),
		named("errored", ""),
		named("clean", ""),
	}}
	if want := "3 of 5 targets checked, 1 not affected by this change, 1 not checked (each says why)"; sel.Line() != want {
		t.Errorf("before the run: %q, want %q", sel.Line(), want)
	}
	results := []targets.Result{
		{Selected: named("head-fails", ""), Report: &report.Report{Failed: true}},
		{Selected: named("jsonnet", "a jsonnet source: not rendered")},
		{Selected: named("errored", ""), Err: errors.New("target errored: the API server is unreachable")},
		{Selected: named("clean", ""), Report: &report.Report{}},
	}
	sel.Ran(results)
	es := make([]report.Entry, len(results))
	for i, r := range results {
		es[i] = report.Entry{Name: r.Name, Report: r.Report, Reason: r.Reason, Err: r.Err}
	}
	if want := "2 of 5 targets checked, 1 not affected by this change, 2 not checked (each says why)"; sel.Line() != want {
		t.Errorf("after the run: %q, want %q", sel.Line(), want)
	}
	if c := report.CoverageOf(es); c.Checked != 2 || c.Targets != 4 {
		t.Errorf("coverage %+v, want 2 of the 4 selected checked, as the selection line says", c)
	}
}
