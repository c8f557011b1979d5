package gitlab

import (
	"bytes"
	"errors"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report"
	"go.yaml.in/yaml/v3"
)

// componentInput is an input of a CI/CD component's spec.
type componentInput struct {
	Description string   `yaml:"description"`
	Default     *string  `yaml:"default"`
	Options     []string `yaml:"options"`
	Type        string   `yaml:"type"`
}

// gitLabOnly are the component's inputs the action has not: where the job
// runs, and the commit status (status).
var gitLabOnly = []string{"stage", "job-name", "image", "status"}

// readComponent reads templates/ownership-check.yml as GitLab does: two
// YAML documents, the spec header and the job.
func readComponent(t *testing.T) (map[string]componentInput, map[string]map[string]any) {
	t.Helper()
	b, err := os.ReadFile("../../templates/ownership-check.yml")
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(b))
	var header struct {
		Spec struct {
			Inputs map[string]componentInput `yaml:"inputs"`
		} `yaml:"spec"`
	}
	if err := dec.Decode(&header); err != nil {
		t.Fatalf("the spec header: %v", err)
	}
	var jobs map[string]map[string]any
	if err := dec.Decode(&jobs); err != nil {
		t.Fatalf("the job document: %v", err)
	}
	var extra any
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		t.Fatalf("a third document: %v", err)
	}
	if len(header.Spec.Inputs) == 0 || len(jobs) != 1 {
		t.Fatalf("%d inputs, %d jobs: want spec: inputs: then --- and one job", len(header.Spec.Inputs), len(jobs))
	}
	return header.Spec.Inputs, jobs
}

// The component's inputs are the action's (same names, same defaults),
// but for the GitHub-only ones, and GitLab's own; and the binary reads
// each through the job's variables with the component's defaults.
func TestComponentInputsAreTheActions(t *testing.T) {
	inputs, jobs := readComponent(t)
	b, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Inputs map[string]struct {
			Default *string `yaml:"default"`
		} `yaml:"inputs"`
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	for name, in := range action.Inputs {
		if slices.Contains(GitHubOnly, name) {
			if _, ok := inputs[name]; ok {
				t.Errorf("input %s is GitHub's alone, yet the component declares it", name)
			}
			continue
		}
		got, ok := inputs[name]
		switch {
		case !ok:
			t.Errorf("the component lacks the action's input %s", name)
		case got.Default == nil || in.Default == nil || *got.Default != *in.Default:
			t.Errorf("input %s: default %v, the action's %v", name, deref(got.Default), deref(in.Default))
		case got.Description == "":
			t.Errorf("input %s has no description", name)
		}
	}
	var names []string
	for name := range inputs {
		names = append(names, name)
		if _, ok := action.Inputs[name]; !ok && !slices.Contains(gitLabOnly, name) {
			t.Errorf("input %s is neither the action's nor one of GitLab's own %v", name, gitLabOnly)
		}
	}
	sort.Strings(names)

	// The binary's table (job.go) is the component's inputs but where the
	// job runs.
	for _, in := range Inputs {
		c, ok := inputs[in.Name]
		if !ok {
			t.Errorf("the component lacks input %s, which ownership-check gitlab reads", in.Name)
			continue
		}
		if deref(c.Default) != in.Default {
			t.Errorf("input %s: the component's default %q, the binary's %q", in.Name, deref(c.Default), in.Default)
		}
		if in.Allowed != nil && !sameSet(in.Allowed, c.Options) {
			t.Errorf("input %s: the component's options %v, the binary's %v", in.Name, c.Options, in.Allowed)
		}
	}
	var job map[string]any
	for _, j := range jobs {
		job = j
	}
	vars, _ := job["variables"].(map[string]any)
	for _, in := range Inputs {
		if got, want := vars[InputVariable(in.Name)], "$[[ inputs."+in.Name+" ]]"; got != want {
			t.Errorf("variable %s = %v, want %s", InputVariable(in.Name), got, want)
		}
	}
	for _, name := range names {
		if !slices.Contains(gitLabOnly[:3], name) && !slices.ContainsFunc(Inputs, func(in Input) bool { return in.Name == name }) {
			t.Errorf("input %s reaches no variable the binary reads", name)
		}
	}
	if vars[TokenVariable] != nil {
		t.Errorf("the token is a variable of the project, never the component's")
	}
}

// The job is one GitLab runs on merge requests (check) and the default
// branch (snapshot), publishes the Code Quality report, and runs the
// binary only after its checksum matched.
func TestComponentJob(t *testing.T) {
	_, jobs := readComponent(t)
	job := jobs["$[[ inputs.job-name ]]"]
	if job == nil {
		t.Fatalf("the job is not named by the job-name input: %v", jobs)
	}
	rules, _ := yaml.Marshal(job["rules"])
	for _, want := range []string{`$CI_PIPELINE_SOURCE == "merge_request_event"`, "$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH"} {
		if !strings.Contains(string(rules), want) {
			t.Errorf("rules lack %s:\n%s", want, rules)
		}
	}
	arts, _ := yaml.Marshal(job["artifacts"])
	if !strings.Contains(string(arts), "codequality: "+report.DirName+"/"+CodeQualityFile) {
		t.Errorf("artifacts:\n%s", arts)
	}
	script, _ := yaml.Marshal(job["script"])
	s := string(script)
	check, run := strings.Index(s, `"$got" != "$want"`), strings.Index(s, `" gitlab`)
	if check < 0 || run < 0 || run < check || !strings.Contains(s, "SHA256SUMS") {
		t.Errorf("the script does not check the binary against SHA256SUMS before it runs `gitlab`:\n%s", s)
	}
}

func deref(s *string) string {
	if s == nil {
		return "<none>"
	}
	return *s
}

func sameSet(a, b []string) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
