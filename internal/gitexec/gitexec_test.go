package gitexec

import (
	"context"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCommandIsHardened(t *testing.T) {
	t.Setenv("GIT_DIR", "/somewhere/else")
	t.Setenv("GIT_INDEX_FILE", "/somewhere/index")
	cmd := command(context.Background(), Where{Dir: "/repo"}, "status")
	for _, want := range []string{"GIT_TERMINAL_PROMPT=0", "GIT_ASKPASS=", "SSH_ASKPASS=", "LC_ALL=C"} {
		if !slices.Contains(cmd.Env, want) {
			t.Errorf("env lacks %s", want)
		}
	}
	for _, kv := range cmd.Env {
		if strings.HasPrefix(kv, "GIT_DIR=") || strings.HasPrefix(kv, "GIT_INDEX_FILE=") {
			t.Errorf("inherited %s reaches git", kv)
		}
	}
	args := strings.Join(cmd.Args, " ")
	for _, want := range []string{"-c safe.directory=*", "-c gc.auto=0", "-c maintenance.auto=false", "-C /repo status"} {
		if !strings.Contains(args, want) {
			t.Errorf("args %q lack %q", args, want)
		}
	}
	if cmd := command(context.Background(), Where{GitDir: "/repo/.git"}, "log"); !slices.Contains(cmd.Env, "GIT_DIR=/repo/.git") {
		t.Error("GitDir is not passed as GIT_DIR")
	}
}

// runAllowed are the folders whose non-test files may write a git command
// line for Run, and why: the rest ask this package's named commands
// (commands.go).
var runAllowed = map[string]string{
	// The benchmarks build the repositories they measure, as a developer
	// would; they are no caller of the tool's git.
	"bench": "benchmark fixtures",
}

// TestGitRunsFromHereOnly: no other non-test file of the module starts
// git, builds a git command to run itself or writes a git command line
// for Run (but runAllowed's), so every git command gets the hardening
// above, fails with one shape (Error) and is named here.
func TestGitRunsFromHereOnly(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// testkit builds the repositories tests run in, as a developer
			// would: it is no caller of the tool's git.
			if n := d.Name(); n == "testdata" || n == ".git" || n == ".bin" || n == "dist" || n == "tools" || n == "testkit" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || filepath.Base(filepath.Dir(path)) == "gitexec" {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "gitexec" && sel.Sel.Name == "Run" {
				if !runIsAllowed(path) {
					t.Errorf("%s: writes a git command line; add a named command to gitexec (commands.go)", fset.Position(call.Pos()))
				}
				return true
			}
			if !ok || (sel.Sel.Name != "Command" && sel.Sel.Name != "CommandContext") {
				return true
			}
			if pkg, ok := sel.X.(*ast.Ident); ok && pkg.Name == "gitexec" {
				t.Errorf("%s: builds a git command itself; use gitexec.Run", fset.Position(call.Pos()))
				return true
			}
			for _, a := range call.Args {
				if lit, ok := a.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, _ := strconv.Unquote(lit.Value); s == "git" {
						t.Errorf("%s: runs git itself; use gitexec.Run", fset.Position(call.Pos()))
					}
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

// runIsAllowed tells whether the file at path (relative to this folder)
// is in a folder of runAllowed, or below one.
func runIsAllowed(path string) bool {
	dir, err := filepath.Rel("../..", filepath.Dir(path))
	if err != nil {
		return false
	}
	dir = filepath.ToSlash(dir)
	for allowed := range runAllowed {
		if dir == allowed || strings.HasPrefix(dir, allowed+"/") {
			return true
		}
	}
	return false
}
