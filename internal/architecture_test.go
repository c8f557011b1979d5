// The import rules of docs/architecture.md, checked on the source: a stage
// that starts importing another, or a package the page does not name,
// fails here rather than in a reviewer's head.
package internal_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type kind string

const (
	foundation kind = "foundation"
	stage      kind = "stage"
	pipeline   kind = "pipeline"
	infra      kind = "infrastructure"
	testInfra  kind = "test infrastructure"
)

// packages classifies every package under internal/, as the
// architecture page does.
var packages = map[string]kind{
	"model":               foundation,
	"delivery":            foundation,
	"render":              stage,
	"render/source":       stage,
	"render/helm":         stage,
	"render/kustomize":    stage,
	"render/flux":         stage,
	"render/argocd":       stage,
	"predict":             stage,
	"ownership":           stage,
	"snapshot":            stage,
	"report":              stage,
	"publish":             stage,
	"github":              stage,
	"gitlab":              stage,
	"migrate":             stage,
	"controllers":         stage,
	"history":             stage,
	"remedy":              stage,
	"changes":             stage,
	"gitops":              stage,
	"gitops/appset":       stage,
	"deployer":            stage,
	"check":               pipeline,
	"check/judge":         pipeline,
	"cli":                 pipeline,
	"printer":             pipeline,
	"command":             pipeline,
	"action":              pipeline,
	"targets":             pipeline,
	"runstate":            pipeline,
	"config":              infra,
	"kube":                infra,
	"secrets":             infra,
	"parallel":            infra,
	"shell":               infra,
	"retry":               infra,
	"typing":              infra,
	"gitexec":             infra,
	"yamldoc":             infra,
	"values":              infra,
	"repofs":              infra,
	"charts":              infra,
	"testkit/testcluster": testInfra,
	"testkit/faultproxy":  testInfra,
	"github/githubtest":   testInfra,
	"gitlab/gitlabtest":   testInfra,
	"report/reporttest":   testInfra,
	"testkit/reliability": testInfra,
	"testkit/release":     testInfra,
	"testkit/monorepo":    testInfra,
	"testkit/chartserver": testInfra,
	"testkit/homeops":     testInfra,
	"testkit/deployers":   testInfra,
}

// stageImports are the only imports between stages: publish writes a
// report's sections, github and gitlab publish a report and are publish's
// stores on GitHub and GitLab, migrate reads managedFields with
// ownership's sets.
var stageImports = map[string][]string{
	"publish": {"report"},
	"github":  {"report", "publish"},
	"gitlab":  {"report", "publish"},
	"migrate": {"ownership"},
}

func TestImportRules(t *testing.T) {
	imports := moduleImports(t)
	for pkg, deps := range imports {
		k, ok := packages[pkg]
		if !ok {
			t.Errorf("internal/%s is not classified: add it to docs/architecture.md and to packages here", pkg)
			continue
		}
		for _, dep := range deps {
			if why := forbidden(pkg, k, dep); why != "" {
				t.Errorf("internal/%s imports internal/%s: %s (docs/architecture.md)", pkg, dep, why)
			}
		}
	}
	for pkg := range packages {
		if _, ok := imports[pkg]; !ok {
			t.Errorf("internal/%s is classified but has no Go files: remove it from packages and docs/architecture.md", pkg)
		}
	}
}

// forbidden says why pkg (of kind k) may not import dep, or "".
func forbidden(pkg string, k kind, dep string) string {
	dk := packages[dep]
	switch {
	case k == testInfra && strings.HasPrefix(pkg, dep+"/"):
		// A package's own test package builds its values.
		return ""
	case k == foundation && (pkg == "model" || dk != foundation):
		return "model is the leaf and imports no package of this module; delivery stands on model alone"
	case dk == testInfra && k != testInfra:
		return "test infrastructure is for tests only"
	case k == stage && strings.HasPrefix(pkg, dep+"/"):
		return "a part of a stage is below the stage's entry points, never above them"
	case k == stage && dk == stage && !slices.Contains(stageImports[pkg], dep) && !sameStage(pkg, dep):
		return "a stage imports no other stage; they meet in check"
	case k == stage && dk == pipeline:
		return "a stage knows nothing of the pipeline that runs it"
	case (k == infra || k == testInfra) && (dk == stage || dk == pipeline):
		return "infrastructure knows no stage"
	case (pkg == "check" || pkg == "targets") && (dep == "github" || dep == "cli" || dep == "printer"):
		return "check builds the report and knows nothing of GitHub or the command line"
	case (pkg == "check" || pkg == "command") && dep == "action":
		return "the action runs the pipeline and its commands, never the other way"
	case dep == "action" && pkg != "cli":
		return "only cli imports the action, to wire its command"
	case pkg == "command" && dep == "github":
		return "command runs what both front ends share; publishing to GitHub is the action's"
	case pkg == "check/judge" && packages[dep] == pipeline:
		return "judge decides what each object's answers mean; it runs nothing and knows nothing of the run (check hands it its input)"
	case dep == "check/judge" && pkg != "check":
		return "only check hands the judging stage its input"
	case pkg == "check" && dep == "targets":
		return "targets runs check for many targets; check runs one"
	case pkg == "check" && dep == "gitops":
		return "check runs one target; discovering targets (and rendering a parent for it) is targets'"
	case dep == "cli" && pkg != "cli":
		return "only main imports the command tree"
	}
	return ""
}

// sameStage: pkg and dep are parts of one stage (render and its families),
// which import each other downward as their rows of the page allow.
func sameStage(pkg, dep string) bool {
	top, _, _ := strings.Cut(pkg, "/")
	depTop, _, _ := strings.Cut(dep, "/")
	return top == depTop
}

// moduleImports maps each package under internal/ (its path below
// internal/) to the packages under internal/ its non-test files import.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	module := modulePath(t)
	prefix := module + "/internal/"
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return err
			}
			if p == module || (strings.HasPrefix(p, module+"/") && !strings.HasPrefix(p, prefix)) {
				t.Errorf("%s imports %s: internal packages import nothing of the module outside internal/", path, p)
			}
			if dep, ok := strings.CutPrefix(p, prefix); ok && !slices.Contains(out[pkg], dep) {
				out[pkg] = append(out[pkg], dep)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	delete(out, ".")
	return out
}

func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.TrimSpace(m)
		}
	}
	t.Fatal("go.mod names no module")
	return ""
}

// TestArchitectureDocNamesEveryPackage keeps docs/architecture.md true to
// the tree: every package is on the page (TestImportRules keeps packages
// true to the tree).
func TestArchitectureDocNamesEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var missing []string
	for pkg := range packages {
		if !strings.Contains(doc, "`internal/"+pkg+"`") {
			missing = append(missing, pkg)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("docs/architecture.md does not name internal/%s", strings.Join(missing, ", internal/"))
	}
}

// TestArchitectureDocMayImport holds each package's row of
// docs/architecture.md to the code: its kind is the one packages gives,
// and every package it imports is one its "may import" column allows. The
// column is read as a list: package names, "every stage" (optionally "but"
// some), "the stages" (their types), "infrastructure", or "nothing of this
// module"; a parenthesis is a remark. Anything else fails, so the column
// stays something a test can read.
func TestArchitectureDocMayImport(t *testing.T) {
	rows := architectureRows(t)
	imports := moduleImports(t)
	for pkg, k := range packages {
		row, ok := rows[pkg]
		if !ok {
			t.Errorf("docs/architecture.md has no table row for internal/%s", pkg)
			continue
		}
		if kind(row.kind) != k {
			t.Errorf("docs/architecture.md says internal/%s is %q; packages here says %q", pkg, row.kind, k)
		}
		allowed, err := mayImport(row.mayImport)
		if err != nil {
			t.Errorf("docs/architecture.md, internal/%s's may import column: %v", pkg, err)
			continue
		}
		for _, dep := range imports[pkg] {
			if !allowed[dep] {
				t.Errorf("internal/%s imports internal/%s, which its row of docs/architecture.md does not allow (%q)", pkg, dep, row.mayImport)
			}
		}
	}
}

type docRow struct{ kind, mayImport string }

// architectureRows reads the package table: | `internal/x` | kind | owns | may import | must never |.
func architectureRows(t *testing.T) map[string]docRow {
	t.Helper()
	b, err := os.ReadFile("../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]docRow{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 7 {
			continue
		}
		name := strings.TrimSpace(cells[1])
		pkg, ok := strings.CutPrefix(strings.Trim(name, "`"), "internal/")
		if !ok || !strings.HasPrefix(name, "`") {
			continue
		}
		rows[pkg] = docRow{kind: strings.TrimSpace(cells[2]), mayImport: strings.TrimSpace(cells[4])}
	}
	return rows
}

// mayImport reads a "may import" column into the set it allows.
func mayImport(col string) (map[string]bool, error) {
	out := map[string]bool{}
	col = stripParens(col)
	if col == "—" || col == "nothing of this module" {
		return out, nil
	}
	of := func(k kind) {
		for p, pk := range packages {
			if pk == k {
				out[p] = true
			}
		}
	}
	for _, item := range strings.Split(col, ",") {
		item = strings.Trim(strings.TrimSpace(item), "`")
		switch {
		case item == "infrastructure":
			of(infra)
		case strings.HasPrefix(item, "every stage"):
			of(stage)
			if _, but, ok := strings.Cut(item, " but "); ok {
				for _, p := range strings.Split(but, " and ") {
					p = strings.Trim(strings.TrimSpace(p), "`")
					if _, known := packages[p]; !known {
						return nil, fmt.Errorf("%q names no package", p)
					}
					delete(out, p)
				}
			}
		case strings.HasPrefix(item, "the stages"):
			of(stage)
		default:
			if _, known := packages[item]; !known {
				return nil, fmt.Errorf("%q is neither a package nor one of the words the test reads", item)
			}
			out[item] = true
		}
	}
	return out, nil
}

func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}

// TestOnlyTheHelmEngineImportsHelm: render's families reach Helm's SDK
// only through render/helm's Engine, so that a second Helm is one more
// implementation (docs/architecture.md, "Add Helm 4 as a renderer"):
// outside tests, the one file of render that imports Helm's packages is
// the engine's.
func TestOnlyTheHelmEngineImportsHelm(t *testing.T) {
	engines := []string{"render/helm/helm3.go", "render/helm/helm4.go"}
	fset := token.NewFileSet()
	var importers []string
	err := filepath.WalkDir("render", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); strings.HasPrefix(p, "helm.sh/helm/") {
				path = filepath.ToSlash(path)
				if !slices.Contains(engines, path) {
					t.Errorf("%s imports %s: reach Helm through render/helm's Engine", path, p)
				}
				importers = append(importers, path)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range engines {
		if !slices.Contains(importers, e) {
			t.Errorf("%s imports no Helm package: is it still the engine?", e)
		}
	}
}
