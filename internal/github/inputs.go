package github

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Inputs are the action's inputs as action.yml declares them, read from the
// INPUT_* variables the runner sets.
type Inputs struct {
	Mode         string   // check, snapshot or migrate
	Paths        []string // one per line
	FieldManager string
	Environment  string
	// Kubeconfig is the content of a kubeconfig file; empty: the runner's
	// KUBECONFIG.
	Kubeconfig string
	// SnapshotRepo is a path or URL; empty: the workspace's repository.
	SnapshotRepo   string
	SnapshotBranch string
	Config         string
	// ConfigRef is where a pull request's check reads Config: "base", its
	// base commit (a pull request cannot loosen its own check), or "head".
	ConfigRef   string
	FailOn      string // empty: the command line's default
	FailOnCause string // empty: the command line's default
	Offline     string // auto, true or false
	Record      bool   // check --record
	Comment     string // update, new, hide-and-new, off or on-findings
	Labels      bool   // labels: true
	// ChartCache keeps the fetched charts between runs, with the runner's
	// cache (action.yml's cache step): chart-cache: true.
	ChartCache  bool
	GitHubToken string
	// Targets selects the repository's targets (listed in the config or
	// discovered): "changed" (those the pull request affects), "all", or
	// names; "" is changed when the config lists or discovers targets.
	// Shard is i/n of them.
	Targets []string
	Shard   string
	// PRNumber, set in a workflow_run job, publishes the report files the
	// pull request's own run left (an artifact downloaded into the
	// workspace's report folder) on that pull request, instead of
	// checking: how a fork's report gets its comment.
	PRNumber int
}

// ReadInputs reads and checks every input. An input the runner did not set
// takes action.yml's default, so that the entrypoint also runs by hand.
func ReadInputs(a *githubactions.Action) (Inputs, error) {
	get := func(name, def string) string {
		if v := a.GetInput(name); v != "" {
			return v
		}
		return def
	}
	in := Inputs{
		Mode:           get("mode", "check"),
		Paths:          lines(get("paths", ".")),
		FieldManager:   get("field-manager", ""),
		Environment:    get("environment", "default"),
		Kubeconfig:     get("kubeconfig", ""),
		SnapshotRepo:   get("snapshot-repo", ""),
		SnapshotBranch: get("snapshot-branch", model.DefaultSnapshotBranch),
		Config:         get("config", ""),
		ConfigRef:      get("config-ref", "base"),
		FailOn:         get("fail-on", ""),
		FailOnCause:    get("fail-on-cause", ""),
		Offline:        get("offline", "auto"),
		Comment:        get("comment", "update"),
		GitHubToken:    get("github-token", ""),
		Targets:        words(get("targets", "")),
		Shard:          get("shard", ""),
	}
	record := get("record", "false")
	labels := get("labels", "false")
	chartCache := get("chart-cache", "true")
	var errs []error
	if n := get("pr-number", ""); n != "" {
		v, err := strconv.Atoi(n)
		if err != nil || v < 1 {
			errs = append(errs, fmt.Errorf("input pr-number: %q is not a pull request number", n))
		}
		in.PRNumber = v
	}
	for _, c := range []struct {
		name, value string
		allowed     []string
	}{
		{"mode", in.Mode, []string{"check", "snapshot", "migrate"}},
		{"offline", in.Offline, []string{"auto", "true", "false"}},
		{"config-ref", in.ConfigRef, []string{"base", "head"}},
		{"comment", in.Comment, []string{"update", "new", "hide-and-new", "off", "on-findings"}},
		{"record", record, []string{"true", "false"}},
		{"labels", labels, []string{"true", "false"}},
		{"chart-cache", chartCache, []string{"true", "false"}},
	} {
		if !slices.Contains(c.allowed, c.value) {
			errs = append(errs, fmt.Errorf("input %s: %q is not one of %s", c.name, c.value, strings.Join(c.allowed, ", ")))
		}
	}
	in.Record = record == "true"
	in.Labels = labels == "true"
	in.ChartCache = chartCache == "true"
	if in.FieldManager == "" && in.Mode == "migrate" {
		// check and snapshot ask it of a target that has none of its own
		// (a discovered target has its controller's; command's
		// RequireFieldManagers, check's requireTarget); publishing a
		// fork's report files (pr-number) applies nothing.
		errs = append(errs, errors.New("input field-manager: "+model.FieldManagerRequired))
	}
	if len(in.Paths) == 0 {
		in.Paths = []string{"."}
	}
	return in, errors.Join(errs...)
}

// lines splits a multi-line input, dropping blank lines and # comments.
func lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return out
}

// words splits a list given one per line or comma-separated.
func words(s string) []string {
	var out []string
	for _, l := range lines(s) {
		for _, w := range strings.Split(l, ",") {
			if w = strings.TrimSpace(w); w != "" {
				out = append(out, w)
			}
		}
	}
	return out
}
