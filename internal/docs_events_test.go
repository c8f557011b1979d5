package internal_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// runEvent is one way a workflow of the docs is triggered, as the
// expressions of its steps see it.
type runEvent struct {
	name    string
	context map[string]string // github.* values; missing ones are ""
	// login: the cluster login must run (a same-repository pull request,
	// a merge queue); false for a fork, which gets no credentials.
	login bool
}

var runEvents = []runEvent{
	{"pull_request", map[string]string{"github.event_name": "pull_request", "github.repository": "acme/shop",
		"github.event.pull_request.head.repo.full_name": "acme/shop", "github.event.pull_request.number": "7"}, true},
	{"pull_request from a fork", map[string]string{"github.event_name": "pull_request", "github.repository": "acme/shop",
		"github.event.pull_request.head.repo.full_name": "mallory/shop", "github.event.pull_request.number": "8"}, false},
	{"merge_group", map[string]string{"github.event_name": "merge_group", "github.repository": "acme/shop",
		"github.ref": "refs/heads/gh-readonly-queue/main/pr-7-abc"}, true},
}

// TestDocsWorkflowsPerEvent runs every workflow of the docs that checks
// pull requests against the events it claims: on a same-repository pull
// request and on a merge queue the cluster login runs (else offline: auto
// stops the run), on a fork it is skipped; merge queue runs do not share
// one concurrency group, which would cancel each other.
func TestDocsWorkflowsPerEvent(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, page := range pages {
		doc, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fenced.FindAllStringSubmatch(string(doc), -1) {
			var wf struct {
				On map[string]any `json:"on"`
				// YAML 1.1 (sigs.k8s.io/yaml) reads the key on as true.
				OnTrue      map[string]any `json:"true"`
				Concurrency struct {
					Group string `json:"group"`
				} `json:"concurrency"`
				Jobs map[string]struct {
					Steps []map[string]any `json:"steps"`
				} `json:"jobs"`
			}
			if m[1] != "yaml" || !strings.Contains(m[2], "jobs:") || yaml.Unmarshal([]byte(m[2]), &wf) != nil {
				continue
			}
			if wf.On == nil {
				wf.On = wf.OnTrue
			}
			if _, pr := wf.On["pull_request"]; !pr {
				continue
			}
			checked++
			name := filepath.Base(page) + ": workflow at " + firstLine(m[2])
			if _, mq := wf.On["merge_group"]; !mq {
				t.Errorf("%s: runs on pull_request but not merge_group: a required check must run in the merge queue too", name)
			}
			for _, ev := range runEvents {
				for id, job := range wf.Jobs {
					for i, step := range job.Steps {
						cond, _ := step["if"].(string)
						if !isLogin(step) || cond == "" {
							continue
						}
						got, err := evalExpr(cond, ev.context)
						if err != nil {
							t.Errorf("%s: job %s step %d: %v", name, id, i, err)
							continue
						}
						if got != ev.login {
							t.Errorf("%s: job %s step %d (%s) runs=%v on %s, want %v", name, id, i, cond, got, ev.name, ev.login)
						}
					}
				}
			}
			if g := wf.Concurrency.Group; g != "" {
				a := expand(g, runEvents[2].context)
				b := expand(g, map[string]string{"github.event_name": "merge_group", "github.ref": "refs/heads/gh-readonly-queue/main/pr-8-def"})
				if a == b {
					t.Errorf("%s: concurrency group %q is the same for every merge queue run (%q): they would cancel each other", name, g, a)
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no pull request workflow found in the docs")
	}
}

func firstLine(s string) string { return strings.SplitN(strings.TrimSpace(s), "\n", 2)[0] }

// isLogin tells whether a step logs in to a cloud or writes a kubeconfig.
func isLogin(step map[string]any) bool {
	uses, _ := step["uses"].(string)
	run, _ := step["run"].(string)
	for _, s := range []string{"configure-aws-credentials", "google-github-actions/auth", "get-gke-credentials", "azure/login", "aks-set-context"} {
		if strings.Contains(uses, s) {
			return true
		}
	}
	return strings.Contains(run, "KUBECONFIG") || strings.Contains(run, "update-kubeconfig")
}

// expand replaces each ${{ expr }} with its value.
func expand(s string, ctx map[string]string) string {
	for {
		i := strings.Index(s, "${{")
		j := strings.Index(s, "}}")
		if i < 0 || j < i {
			return s
		}
		v, _ := evalValue(strings.TrimSpace(s[i+3:j]), ctx)
		s = s[:i] + v + s[j+2:]
	}
}

// evalExpr evaluates a GitHub Actions condition of the forms the docs use
// (==, !=, &&, ||, !, parentheses, strings, github.* values, always()),
// read with Go's expression parser: the syntax is the same once the
// strings are double-quoted.
func evalExpr(expr string, ctx map[string]string) (bool, error) {
	v, err := evalValue(expr, ctx)
	return v != "" && v != "false", err
}

func evalValue(expr string, ctx map[string]string) (string, error) {
	e, err := parser.ParseExpr(strings.ReplaceAll(strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(expr), "${{"), "}}")), "'", `"`))
	if err != nil {
		return "", fmt.Errorf("%q: %v", expr, err)
	}
	var eval func(ast.Expr) (string, error)
	truthy := func(s string) bool { return s != "" && s != "false" }
	eval = func(e ast.Expr) (string, error) {
		switch e := e.(type) {
		case *ast.ParenExpr:
			return eval(e.X)
		case *ast.BasicLit:
			return strconv.Unquote(e.Value)
		case *ast.SelectorExpr, *ast.Ident:
			return ctx[exprName(e)], nil
		case *ast.CallExpr:
			if exprName(e.Fun) == "always" {
				return "true", nil
			}
			return "", fmt.Errorf("function %s", exprName(e.Fun))
		case *ast.UnaryExpr:
			x, err := eval(e.X)
			if e.Op != token.NOT {
				return "", fmt.Errorf("operator %s", e.Op)
			}
			return strconv.FormatBool(!truthy(x)), err
		case *ast.BinaryExpr:
			x, err := eval(e.X)
			if err != nil {
				return "", err
			}
			y, err := eval(e.Y)
			if err != nil {
				return "", err
			}
			switch e.Op {
			case token.EQL:
				return strconv.FormatBool(strings.EqualFold(x, y)), nil
			case token.NEQ:
				return strconv.FormatBool(!strings.EqualFold(x, y)), nil
			case token.LAND:
				if !truthy(x) {
					return x, nil
				}
				return y, nil
			case token.LOR:
				if truthy(x) {
					return x, nil
				}
				return y, nil
			}
			return "", fmt.Errorf("operator %s", e.Op)
		}
		return "", fmt.Errorf("expression %T", e)
	}
	return eval(e)
}

func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return exprName(e.X) + "." + e.Sel.Name
	}
	return ""
}
