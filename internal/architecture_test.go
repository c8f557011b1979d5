// The import rules of docs/architecture.md, checked on the source: a stage
// that starts importing another, or a package the page does not name,
// fails here rather than in a reviewer's head.
package internal_test

import (
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
	"render":              stage,
	"predict":             stage,
	"ownership":           stage,
	"snapshot":            stage,
	"report":              stage,
	"github":              stage,
	"migrate":             stage,
	"controllers":         stage,
	"history":             stage,
	"remedy":              stage,
	"changes":             stage,
	"check":               pipeline,
	"cli":                 pipeline,
	"cli/printer":         pipeline,
	"targets":             pipeline,
	"config":              infra,
	"kube":                infra,
	"secrets":             infra,
	"parallel":            infra,
	"retry":               infra,
	"typing":              infra,
	"gitexec":             infra,
	"testkit/testcluster": testInfra,
	"testkit/faultproxy":  testInfra,
	"github/githubtest":   testInfra,
	"report/reporttest":   testInfra,
	"testkit/reliability": testInfra,
	"testkit/release":     testInfra,
	"testkit/monorepo":    testInfra,
}

// stageImports are the only imports between stages: github publishes a
// report, migrate reads managedFields with ownership's sets.
var stageImports = map[string][]string{
	"github":  {"report"},
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
	case k == foundation:
		return "model is the leaf and imports no package of this module"
	case dk == testInfra && k != testInfra:
		return "test infrastructure is for tests only"
	case k == stage && dk == stage && !slices.Contains(stageImports[pkg], dep):
		return "a stage imports no other stage; they meet in check"
	case k == stage && dk == pipeline:
		return "a stage knows nothing of the pipeline that runs it"
	case (k == infra || k == testInfra) && (dk == stage || dk == pipeline):
		return "infrastructure knows no stage"
	case (pkg == "check" || pkg == "targets") && (dep == "github" || dep == "cli" || dep == "cli/printer"):
		return "check builds the report and knows nothing of GitHub or the command line"
	case pkg == "check" && dep == "targets":
		return "targets runs check for many targets; check runs one"
	case dep == "cli" && pkg != "cli":
		return "only main imports the command tree"
	}
	return ""
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
