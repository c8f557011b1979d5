package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// repositoryReads are the calls that open, stat, list, walk or resolve a
// path: on a repository's files only repofs makes them.
var repositoryReads = map[string][]string{
	"os":       {"Open", "OpenFile", "ReadFile", "Stat", "Lstat", "ReadDir"},
	"filepath": {"Walk", "WalkDir", "EvalSymlinks", "Glob"},
}

// notRepositoryReaders are the packages (or files) whose file reads are
// not of a repository's content. Each entry says why.
var notRepositoryReaders = map[string]string{
	"repofs":  "the one reader of repository files",
	"testkit": "test infrastructure: fixtures, the test cluster's files, the release build",
	// The snapshot store's own git clone and bundle, and fast-import's
	// marks: git's files, not a checkout's content.
	"snapshot": "the snapshot store's git files",
	"gitexec":  "git's own files and the trees it extracts into temporary directories",
	// The action's event file, kubeconfig and workspace owner: the
	// runner's files, named by the workflow.
	"github":       "the workflow's event file and kubeconfig",
	"action":       "the workflow's kubeconfig, workspace owner and report files",
	"cli/check.go": "writes the --report-file the operator names",
	// The GitLab job's kubeconfig (input, KUBECONFIG, ~/.kube/config):
	// the runner's files.
	"cli/gitlab.go":      "the job's kubeconfig input",
	"cli/gitlabcheck.go": "the job's kubeconfig files, looked for as kubectl does",
	// A CI job's report files in its workspace, written as artifacts
	// (never through a symlink the checkout holds).
	"report/file.go":    "writes a job's report files",
	"report/reporttest": "golden files of tests",
	"charts":            "the chart cache and the Docker config file the trusted config names",
}

// TestOneReaderOfRepositoryFiles fails when a package other than repofs
// (and the few above, which read no repository content) opens, stats,
// lists or walks a path itself.
func TestOneReaderOfRepositoryFiles(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if d.Name() == "testdata" || allowed(filepath.ToSlash(path)) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || allowed(filepath.ToSlash(path)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		names := importNames(f)
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			for _, fn := range repositoryReads[names[id.Name]] {
				if sel.Sel.Name == fn {
					t.Errorf("%s: %s.%s: read repository files through internal/repofs (or, for files that are not a repository's, add the package to notRepositoryReaders with why)", fset.Position(sel.Pos()), id.Name, fn)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// allowed: path (below internal/, with slashes) is in notRepositoryReaders.
func allowed(path string) bool {
	for p := range notRepositoryReaders {
		if path == p || strings.HasPrefix(path, p+"/") {
			return true
		}
	}
	return false
}

// importNames maps the names a file uses for os and path/filepath to them.
func importNames(f *ast.File) map[string]string {
	out := map[string]string{}
	for _, imp := range f.Imports {
		p := strings.Trim(imp.Path.Value, `"`)
		if p != "os" && p != "path/filepath" {
			continue
		}
		name := filepath.Base(p)
		if imp.Name != nil {
			name = imp.Name.Name
		}
		out[name] = filepath.Base(p)
	}
	return out
}
