package internal_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sethvargo/go-githubactions"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/github"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestCauseTable walks the cause table: every cause decides, has its JSON
// word, a --fail-on-cause word, its help and default, a part of the report
// (with a heading for the environment's), annotations or none, a count in
// the JSON summary and a name in the history's timeline when it is a
// judgement, and the action's input and docs name it.
func TestCauseTable(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct{ Description, Default string }
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	input := action.Inputs["fail-on-cause"]
	if input.Default != model.DefaultFailOnCause() {
		t.Errorf("action.yml's fail-on-cause default %q, want the table's %q", input.Default, model.DefaultFailOnCause())
	}
	docs, err := os.ReadFile(filepath.Join("..", "docs", "github-action.md"))
	if err != nil {
		t.Fatal(err)
	}
	defaults, err := check.ParseFailOnCause(model.DefaultFailOnCause())
	if err != nil {
		t.Fatalf("default --fail-on-cause %q: %v", model.DefaultFailOnCause(), err)
	}
	help := cli.FailOnCauseHelp()

	for _, r := range model.CauseTable() {
		c := r.Cause
		if c == "" || r.Holds == nil || (r.Actor != model.ActorPullRequest && r.Actor != model.ActorEnvironment) {
			t.Errorf("%q: every row needs its word, its Holds and its actor: %+v", c, r)
			continue
		}
		if got := c.Info(); got.Cause != c || got.Actor != r.Actor {
			t.Errorf("%s: Info gives another row: %+v", c, got)
		}
		js, err := json.Marshal(model.Finding{Category: model.Drift, Cause: c})
		if err != nil || !strings.Contains(string(js), fmt.Sprintf(`"cause":%q`, c)) {
			t.Errorf("%s: not the finding's JSON value: %s (%v)", c, js, err)
		}

		// --fail-on-cause: its word selects it, the help names the word,
		// the default selects it exactly when it fails by default.
		w := r.FailOnWord()
		if sel := r.SelectedWith; sel != "" && (sel.Info().Cause != sel || sel.Info().SelectedWith != "" || sel.Info().FailsByDefault != r.FailsByDefault) {
			t.Errorf("%s: selected with %q, which must be a word of its own that fails by default as %s does", c, sel, c)
		}
		if p, err := check.ParseFailOnCause(string(w)); err != nil || !p[c] {
			t.Errorf("%s: --fail-on-cause %s does not select it (%v)", c, w, err)
		}
		if p, _ := check.ParseFailOnCause("all"); !p[c] {
			t.Errorf("%s: --fail-on-cause all does not select it", c)
		}
		if !strings.Contains(help, " "+string(w)) {
			t.Errorf("%s: --fail-on-cause's help does not name %s: %s", c, w, help)
		}
		if defaults[c] != r.FailsByDefault {
			t.Errorf("%s: the default --fail-on-cause selects it: %v, its row says %v", c, defaults[c], r.FailsByDefault)
		}
		if r.SelectedWith == "" && !strings.Contains(input.Description, "`"+string(c)+"`") {
			t.Errorf("%s: action.yml's fail-on-cause does not name it", c)
		}
		if !strings.Contains(string(docs), "| `"+string(c)+"` |") {
			t.Errorf("%s: not in docs/github-action.md's table of causes", c)
		}

		// The report: its part, its heading, its count and its actor.
		rep := &report.Report{Environment: "staging", Objects: []report.Object{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "flags",
			Source: "flags.yaml", Findings: []model.Finding{{Category: model.Drift, Path: ".data.mode", Message: "changed", Cause: c}}}}}
		rep.Summarize()
		if got := rep.Summary.Causes[c]; (got == 1) != r.Stated {
			t.Errorf("%s: the JSON summary counts %d, its row says stated %v", c, got, r.Stated)
		}
		if _, env := rep.Summary.Loud(); (env == 1) != (r.Actor == model.ActorEnvironment) {
			t.Errorf("%s: %d of the environment's in the verdict, its actor is %s", c, env, r.Actor)
		}
		var text bytes.Buffer
		if err := report.WriteText(&text, rep, report.TextOptions{}); err != nil {
			t.Fatal(err)
		}
		if r.Actor == model.ActorEnvironment {
			if r.Heading == "" || !strings.Contains(text.String(), strings.ReplaceAll(r.Heading, "{env}", "staging")) {
				t.Errorf("%s: the environment's part does not say what happened (heading %q):\n%s", c, r.Heading, text.String())
			}
		} else if r.Heading != "" || strings.Contains(text.String(), "Not caused by this pull request") {
			t.Errorf("%s: the pull request's findings are in the environment's part:\n%s", c, text.String())
		}

		// GitHub's annotations and the history's timeline.
		var log bytes.Buffer
		github.Annotate(githubactions.New(githubactions.WithWriter(&log), githubactions.WithGetenv(func(string) string { return "" })), rep)
		if strings.Contains(log.String(), "::warning ") != r.Annotated {
			t.Errorf("%s: annotated %v, its row says %v:\n%s", c, !r.Annotated, r.Annotated, log.String())
		}
		var timeline bytes.Buffer
		l := &history.Log{Environment: "staging", Branch: "ownership-snapshots", Deploys: []*history.Deploy{{Environment: "staging",
			RecordedAt: time.Unix(0, 0), FieldManager: "deployer", Objects: []history.Object{{ID: rep.Objects[0].ID(),
				Findings: []history.Finding{{Category: model.Drift, Path: ".data.mode", Cause: c}}}}}}}
		if err := printer.History(&timeline, l, history.Filter{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(timeline.String(), "cause "+string(c)) != r.Stated {
			t.Errorf("%s: the timeline names it: %v, its row says stated %v:\n%s", c, !r.Stated, r.Stated, timeline.String())
		}
	}
}
