package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// jsonnetApp is an Application whose directory source is apps/j, with
// directory.jsonnet as given.
func jsonnetApp(jsonnet string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: j
spec:
  source:
    repoURL: https://github.com/example/gitops.git
    path: apps/j
    directory:
      jsonnet: ` + jsonnet + `
  destination:
    namespace: web
`
}

// TestArgoCDJsonnetReadsOnlyTheRepository: a jsonnet source's imports are
// read through the guarded file system only. An import that leaves the
// repository (by "..", by a link, by an absolute path) or a library path
// outside it fails the render naming the file that asks for it, and
// nothing of the outside file shows; an import a TLA's code makes looks
// in the library paths only, as in Argo CD, whose repo server evaluates
// it from a working directory that holds nothing of the repository.
func TestArgoCDJsonnetReadsOnlyTheRepository(t *testing.T) {
	const canary = "CANARY-0d6f2b"
	outside := t.TempDir()
	writeFile(t, filepath.Join(outside, "secret.libsonnet"), "{ token: '"+canary+"' }\n")
	for _, tc := range []struct {
		name, main, jsonnet string
		link                bool
		want                []string
	}{
		{name: "up and out", main: "(import '../../../secret.libsonnet').token", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet", `apps/j/main.jsonnet imports "../../../secret.libsonnet": outside the repository; ownership-check does not read it`}},
		{name: "a link out", main: "(import 'link.libsonnet').token", jsonnet: "{}", link: true,
			want: []string{`apps/j/main.jsonnet imports "link.libsonnet": apps/j/link.libsonnet: symlink to`, "does not follow it"}},
		{name: "an absolute path", main: "(import '" + filepath.Join(outside, "secret.libsonnet") + "').token", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet", "an absolute path, which Argo CD would read from its repo server's own files"}},
		{name: "importstr out", main: "importstr '../../../secret.libsonnet'", jsonnet: "{}",
			want: []string{`imports "../../../secret.libsonnet": outside the repository`}},
		{name: "a file past 8 MiB", main: "importstr 'big.txt'", jsonnet: "{}",
			want: []string{"apps/j/big.txt: 8388609 bytes, larger than the limit of 8388608"}},
		{name: "a library path out", main: "{}", jsonnet: "{libs: [../..]}",
			want: []string{"source.directory.jsonnet.libs[0]", `"../.." resolved to outside the repository`}},
		{name: "a TLA's import, in the library paths only", main: "function(x) x", jsonnet: "{tlas: [{name: x, value: \"import 'top.libsonnet'\", code: true}]}",
			want: []string{"apps/j/main.jsonnet: failed to evaluate jsonnet", `couldn't open import "top.libsonnet": no match locally or in the Jsonnet library paths`}},
		{name: "an error of the jsonnet", main: "error 'no guestbook here'", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet: failed to evaluate jsonnet", "no guestbook here"}},
		{name: "output that is no object", main: "'a string'", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet: failed to unmarshal generated json: the output is a string, not an object"}},
		{name: "an object without kind", main: "{apiVersion: 'v1', metadata: {name: 'x'}}", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet: failed to unmarshal generated json", "'Kind' is missing"}},
		{name: "an array with an object without kind", main: "[{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'x'}}, {apiVersion: 'v1', metadata: {name: 'y'}}]", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet: failed to unmarshal generated json: item 1 of the output: object 'Kind' is missing"}},
		{name: "a nested array", main: "[[{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'x'}}]]", jsonnet: "{}",
			want: []string{"apps/j/main.jsonnet: failed to unmarshal generated json: item 0 of the output is a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
			writeFile(t, filepath.Join(root, "top.libsonnet"), "{}\n")
			writeFile(t, filepath.Join(root, "app.yaml"), jsonnetApp(tc.jsonnet))
			writeFile(t, filepath.Join(root, "apps/j/main.jsonnet"), tc.main+"\n")
			// A copy of the outside file two levels above apps/j, which
			// "../../../" from apps/j would reach if the root were one
			// level lower: it is still outside.
			writeFile(t, filepath.Join(root, "secret.libsonnet"), "{ token: 'inside' }\n")
			if tc.name == "a file past 8 MiB" {
				writeFile(t, filepath.Join(root, "apps/j/big.txt"), strings.Repeat("x", 8<<20+1))
			}
			if tc.link {
				if err := os.Symlink(filepath.Join(outside, "secret.libsonnet"), filepath.Join(root, "apps/j/link.libsonnet")); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(root)
			r, err := RenderAll(context.Background(), []string{"apps/j"}, Options{Deployer: argoDeployer(t, root, "app.yaml")})
			if err == nil {
				t.Fatalf("rendered %d objects", len(r.Objects))
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant %q", err, w)
				}
			}
			if strings.Contains(err.Error(), canary) {
				t.Errorf("the outside file's content is in the error: %q", err)
			}
		})
	}
}

// TestArgoCDJsonnetIncludeExclude: directory.include and exclude choose
// the jsonnet files evaluated as they choose manifests; a .libsonnet file
// is never evaluated on its own.
func TestArgoCDJsonnetIncludeExclude(t *testing.T) {
	root := t.TempDir()
	writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
	cm := func(name string) string {
		return "{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: '" + name + "'}}\n"
	}
	writeFile(t, filepath.Join(root, "apps/j/a.jsonnet"), cm("a"))
	writeFile(t, filepath.Join(root, "apps/j/b.jsonnet"), cm("b"))
	writeFile(t, filepath.Join(root, "apps/j/c.libsonnet"), cm("c"))
	writeFile(t, filepath.Join(root, "app.yaml"), strings.Replace(jsonnetApp("{}"), "    directory:\n", "    directory:\n      exclude: b.jsonnet\n", 1))
	t.Chdir(root)
	r, err := RenderAll(context.Background(), []string{"apps/j"}, Options{Deployer: argoDeployer(t, root, "app.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Objects) != 1 || r.Objects[0].ID.String() != "ConfigMap/web/a" || r.Objects[0].Source != "apps/j/a.jsonnet" {
		t.Errorf("objects %v, want ConfigMap web/a from apps/j/a.jsonnet", r.Objects)
	}
}

// TestArgoCDJsonnetDeepNesting: brackets nested deeper than go-jsonnet's
// parser can take (its recursion would overflow the Go stack and end the
// process) are refused before it parses, naming the file or the TLA,
// however strings hide them; brackets in strings, comments and text
// blocks are no nesting, and a file full of them renders.
func TestArgoCDJsonnetDeepNesting(t *testing.T) {
	const n = 20000
	hidden := strings.Repeat(`["]", '])}', @"]""}", /* ] */ `, n) + "1" + strings.Repeat("]", n)
	brackets := strings.Repeat("[", 3000)
	shallow := "// " + brackets + "\n# " + brackets + "\n/* " + brackets + " */\n" +
		"{apiVersion: 'v1', kind: 'ConfigMap', metadata: {name: 'c'}, data: {a: '" + brackets + "', b: \"" + brackets + "\", c: @'" + brackets + "', d: |||\n  " + brackets + "\n  |||\n|||,\n}}\n"
	for _, tc := range []struct {
		name, main, jsonnet, want string
	}{
		{name: "deep", main: "local x = " + strings.Repeat("[", n) + strings.Repeat("]", n) + "; {}", jsonnet: "{}",
			want: "apps/j/main.jsonnet: brackets nested 20000 deep, more than the limit of 2000"},
		{name: "deep, closing brackets in strings", main: hidden, jsonnet: "{}",
			want: "apps/j/main.jsonnet: brackets nested 20000 deep"},
		{name: "deep in a TLA's code", main: "function(x) {}", jsonnet: "{tlas: [{name: x, code: true, value: '" + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "'}]}",
			want: "app.yaml: source.directory.jsonnet.tlas[0]: brackets nested 20000 deep"},
		{name: "brackets that are no nesting", main: shallow, jsonnet: "{}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFile(t, filepath.Join(root, ".git/HEAD"), "ref: refs/heads/main\n")
			writeFile(t, filepath.Join(root, "app.yaml"), jsonnetApp(tc.jsonnet))
			writeFile(t, filepath.Join(root, "apps/j/main.jsonnet"), tc.main)
			t.Chdir(root)
			r, err := RenderAll(context.Background(), []string{"apps/j"}, Options{Deployer: argoDeployer(t, root, "app.yaml")})
			if tc.want == "" {
				if err != nil || len(r.Objects) != 1 {
					t.Fatalf("%v, %d objects", err, len(r.Objects))
				}
				data := r.Objects[0].Object.Object["data"].(map[string]any)
				// A line of the text block that begins with ||| but is
				// indented as the block is part of it.
				if data["a"] != brackets || data["d"] != brackets+"\n|||\n" {
					t.Errorf("data a %.20q…, d %.20q…", data["a"], data["d"])
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v\nwant %q", err, tc.want)
			}
		})
	}
}
