package internal_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
)

var fenced = regexp.MustCompile("(?ms)^ *```(\\w*)\n(.*?)^ *```")

// TestTrustDocsExamples keeps the examples of the trust pages true: every
// repository config loads as the tool loads it, every workflow passes only
// runs the required check on every pull request under a name built from no
// secret (TestDocsActionSteps checks the inputs it passes), and every shell
// command is run by a test (TestRBACDocCommands
// runs docs/rbac.md's; docs/trust-model.md has none to run).
func TestTrustDocsExamples(t *testing.T) {
	for _, page := range []string{"trust-model.md", "rbac.md"} {
		doc, err := os.ReadFile(filepath.Join("..", "docs", page))
		if err != nil {
			t.Fatal(err)
		}
		configs, workflows := 0, 0
		for _, m := range fenced.FindAllStringSubmatch(string(doc), -1) {
			lang, body := m[1], m[2]
			switch {
			case lang == "sh" && page != "rbac.md":
				t.Errorf("%s: a sh block no test runs:\n%s", page, body)
			case lang == "yaml" && strings.HasPrefix(body, "# .ownership-check.yaml"):
				configs++
				if _, err := config.Parse(page, []byte(body)); err != nil {
					t.Errorf("%s: %v", page, err)
				}
			case lang == "yaml" && strings.HasPrefix(body, "# .github/workflows/"):
				workflows++
				checkWorkflow(t, page, body)
			}
		}
		if configs == 0 {
			t.Errorf("%s: no repository config example found", page)
		}
		if page == "trust-model.md" && workflows == 0 {
			t.Errorf("%s: no workflow example found", page)
		}
	}
}

func checkWorkflow(t *testing.T, page, body string) {
	t.Helper()
	var wf struct {
		On map[string]map[string]any `json:"on"`
		// YAML 1.1 (sigs.k8s.io/yaml) reads the key on as true.
		OnTrue map[string]map[string]any `json:"true"`
		Jobs   map[string]struct {
			Name string `json:"name"`
		} `json:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(body), &wf); err != nil {
		t.Errorf("%s: workflow: %v", page, err)
		return
	}
	if wf.On == nil {
		wf.On = wf.OnTrue
	}
	if len(wf.On) == 0 {
		t.Errorf("%s: a workflow without events", page)
	}
	if pr, ok := wf.On["pull_request"]; ok {
		for _, filter := range []string{"paths", "paths-ignore", "branches-ignore"} {
			if _, ok := pr[filter]; ok {
				t.Errorf("%s: a required check must run on every pull request: no %s filter", page, filter)
			}
		}
	}
	for id, job := range wf.Jobs {
		if strings.Contains(job.Name, "secrets.") {
			t.Errorf("%s: job %s: a check name must not be built from a secret", page, id)
		}
	}
}

// TestDocsActionSteps keeps every example step of the action, in every doc
// page and the README, to the inputs action.yml declares: a workflow
// copied from the docs must not pass an input the action ignores.
func TestDocsActionSteps(t *testing.T) {
	inputs := actionInputs(t)
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join("..", "README.md"))
	steps := 0
	for _, page := range pages {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fenced.FindAllStringSubmatch(string(doc), -1) {
			if m[1] != "yaml" || !strings.Contains(m[2], "ownership-check/ownership-check@") {
				continue
			}
			var v any
			if err := yaml.Unmarshal([]byte(m[2]), &v); err != nil {
				t.Errorf("%s: a workflow example that is no YAML: %v\n%s", page, err, m[2])
				continue
			}
			walkSteps(v, func(uses string, with map[string]any) {
				if !strings.HasPrefix(uses, "ownership-check/ownership-check@") {
					return
				}
				steps++
				for k := range with {
					if _, ok := inputs[k]; !ok {
						t.Errorf("%s: a step of %s passes %s, which action.yml does not declare", page, uses, k)
					}
				}
			})
		}
	}
	if steps == 0 {
		t.Error("no step of the action found in the docs")
	}
}

// actionInputs are the inputs action.yml declares.
func actionInputs(t *testing.T) map[string]any {
	t.Helper()
	var action struct {
		Inputs map[string]any `json:"inputs"`
	}
	b, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(b, &action); err != nil {
		t.Fatal(err)
	}
	return action.Inputs
}

// walkSteps calls f with every map in v that has a uses key.
func walkSteps(v any, f func(uses string, with map[string]any)) {
	switch v := v.(type) {
	case map[string]any:
		if uses, ok := v["uses"].(string); ok {
			with, _ := v["with"].(map[string]any)
			f(uses, with)
		}
		for _, c := range v {
			walkSteps(c, f)
		}
	case []any:
		for _, c := range v {
			walkSteps(c, f)
		}
	}
}

// TestDocsGitOpsRecipes keeps the Flux recipe consistent: the snapshot
// workflow listens for the event the Alert's Provider sends, which
// githubdispatch names Kind/name.namespace after the event's source.
func TestDocsGitOpsRecipes(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "github-action.md"))
	if err != nil {
		t.Fatal(err)
	}
	var sent, listened []string
	for _, m := range fenced.FindAllStringSubmatch(string(doc), -1) {
		if m[1] != "yaml" {
			continue
		}
		for _, part := range strings.Split(m[2], "\n---\n") {
			var obj struct {
				Kind     string `json:"kind"`
				Metadata struct {
					Namespace string `json:"namespace"`
				} `json:"metadata"`
				Spec struct {
					EventSources []struct{ Kind, Name string } `json:"eventSources"`
				} `json:"spec"`
				OnTrue map[string]struct {
					Types []string `json:"types"`
				} `json:"true"`
			}
			if err := yaml.Unmarshal([]byte(part), &obj); err != nil {
				continue
			}
			if obj.Kind == "Alert" {
				for _, src := range obj.Spec.EventSources {
					sent = append(sent, src.Kind+"/"+src.Name+"."+obj.Metadata.Namespace)
				}
			}
			if rd, ok := obj.OnTrue["repository_dispatch"]; ok {
				listened = append(listened, rd.Types...)
			}
		}
	}
	if len(sent) == 0 {
		t.Fatal("no Flux Alert in docs/github-action.md")
	}
	for _, ev := range sent {
		found := false
		for _, l := range listened {
			found = found || l == ev
		}
		if !found {
			t.Errorf("the Alert sends %s, which no snapshot workflow of the page listens for (%v)", ev, listened)
		}
	}
}

// fenceLine is a line that opens or closes a code block: the fence
// alone, an info string after an opening one.
var fenceLine = regexp.MustCompile("^ *```[\\w+-]*\\s*$")

// TestDocsFencesAlone: a code fence stands on a line of its own, so that
// GitHub closes a block where the page means it to; a fence followed by
// prose on its line leaves the rest of the page in the block.
func TestDocsFencesAlone(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil || len(pages) == 0 {
		t.Fatalf("docs pages: %v %v", pages, err)
	}
	for _, page := range append(pages, filepath.Join("..", "README.md")) {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(doc), "\n") {
			if strings.Contains(line, "```") && !fenceLine.MatchString(line) {
				t.Errorf("%s:%d: a code fence with more on its line: %q", page, i+1, line)
			}
		}
	}
}
