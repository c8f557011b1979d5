package reliability_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// symlinkCanary is in the file outside the repository: no output may show
// it, whichever reader a link leads to it.
const symlinkCanary = "symlink-canary-5e1d"

const helmTarget = "targets:\n- name: web\n  helm: {chart: chart, release: web, namespace: apps, values: [values/prod.yaml]}\n"

var chart = map[string]string{
	"chart/Chart.yaml":        "apiVersion: v2\nname: web\nversion: 1.0.0\n",
	"chart/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n  v: {{ .Values.v | quote }}\n",
	"values/prod.yaml":        "v: prod\n",
	".ownership-check.yaml":   helmTarget,
	"app/kustomization.yaml":  "resources:\n- cm.yaml\n",
	"app/cm.yaml":             "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n",
	"argocd/appset.yaml":      appSet,
	"config/dev.yaml":         "name: dev\n",
}

const appSet = `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: envs, namespace: argocd}
spec:
  generators:
  - git:
      repoURL: https://github.com/example/gitops
      revision: HEAD
      files:
      - path: config/*.yaml
  template:
    metadata: {name: '{{name}}'}
    spec:
      project: default
      source: {repoURL: https://github.com/example/gitops, targetRevision: HEAD, path: app}
      destination: {server: https://kubernetes.default.svc, namespace: '{{name}}'}
`

// TestSymlinkOutOfTheRepository: a committed link to a file elsewhere on
// the runner is refused by every reader of repository files (the
// ApplicationSet git-files generator, a values file, a kustomize
// resource, a chart's template, the repository config), with an error
// naming the link and exit 2, and the file's content in no output. The
// output is the same byte for byte when the link's target is missing:
// no refusal says whether a path outside the repository exists.
func TestSymlinkOutOfTheRepository(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.yaml")
	if err := os.WriteFile(outside, []byte("name: "+symlinkCanary+"\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "+symlinkCanary+"\nv: "+symlinkCanary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.yaml")
	discover := "discover:\n- argocd: argocd\nrepositories: [https://github.com/example/gitops]\n"
	for _, tc := range []struct {
		name, link, config string
		args               []string
		// want is what the error says: the kustomization scan refuses
		// the entry before anything reads it, naming the kustomization,
		// the field and the entry.
		want []string
	}{
		{"ApplicationSet git files", "config/prod.yaml", discover, []string{"targets"}, []string{"config/prod.yaml", "does not follow it"}},
		{"values file", "values/prod.yaml", "", []string{"render", "--target", "web"}, []string{"values/prod.yaml", "does not follow it"}},
		{"kustomize resource", "app/cm.yaml", "", []string{"render", "app"}, []string{"app/kustomization.yaml", `"cm.yaml"`, "outside the repository", "never reads files there"}},
		{"chart template", "chart/templates/cm.yaml", "", []string{"render", "--target", "web"}, []string{"chart/templates/cm.yaml", "does not follow it"}},
		{"repository config", ".ownership-check.yaml", "", []string{"render", "app"}, []string{".ownership-check.yaml", "does not follow it"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var seen []string
			for _, target := range []string{outside, missing} {
				files := map[string]string{}
				for k, v := range chart {
					files[k] = v
				}
				if tc.config != "" {
					files[".ownership-check.yaml"] = tc.config
				}
				delete(files, tc.link)
				root := writeTree(t, files)
				if err := os.MkdirAll(filepath.Dir(filepath.Join(root, tc.link)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(target, filepath.Join(root, tc.link)); err != nil {
					t.Fatal(err)
				}
				t.Chdir(root)
				// render and targets write no report file: stdout and
				// stderr are all they print.
				r := run(t, tc.args...)
				if r.code != 2 {
					t.Fatalf("link to %s: want exit 2, got %d\nstdout:\n%s\nstderr:\n%s", target, r.code, r.stdout, r.stderr)
				}
				for _, w := range tc.want {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("link to %s: the error does not say %q:\n%s", target, w, r.stderr)
					}
				}
				out := r.stdout + r.stderr
				if strings.Contains(out, symlinkCanary) || strings.Contains(out, filepath.Base(target)) {
					t.Errorf("content or the name of the place outside the repository is in the output:\n%s", out)
				}
				seen = append(seen, strings.ReplaceAll(out, root, "REPO"))
			}
			if seen[0] != seen[1] {
				t.Errorf("the output says whether the link's target exists:\nthere:\n%s\nmissing:\n%s", seen[0], seen[1])
			}
		})
	}
}

// TestSymlinkToDevZero: a link to /dev/zero is refused at once, whether a
// kustomization or the YAML reader reaches it: nothing reads it, and the
// test ends quickly.
func TestSymlinkToDevZero(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	for _, path := range []string{"app", "app/cm.yaml"} {
		t.Run(path, func(t *testing.T) {
			root := writeTree(t, map[string]string{"app/kustomization.yaml": "resources:\n- cm.yaml\n"})
			if err := os.Symlink("/dev/zero", filepath.Join(root, "app", "cm.yaml")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			start := time.Now()
			r, alloc := measured(t, "render", path)
			if took := time.Since(start); took > 10*time.Second {
				t.Errorf("took %s", took)
			}
			// Given on the command line, the link's folder (/dev) is the
			// operator's choice: the device is then refused as no file.
			refused := strings.Contains(r.stderr, "leads outside the repository") || strings.Contains(r.stderr, "not a regular file")
			if r.code != 2 || !strings.Contains(r.stderr, "cm.yaml") || !refused {
				t.Errorf("want exit 2 naming cm.yaml, got %d:\n%s", r.code, r.stderr)
			}
			if alloc > 64<<20 {
				t.Errorf("allocated %d MiB: the link was read", alloc>>20)
			}
		})
	}
}

// TestPathOutOfTheRepository: a kustomization's `../` path out of the
// repository is refused in the same words whether the file there exists
// or not.
func TestPathOutOfTheRepository(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "there.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "+symlinkCanary+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var seen []string
	for _, name := range []string{"there.yaml", "nothere.yaml"} {
		root := writeTree(t, map[string]string{"app/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: app\n"})
		ref, err := filepath.Rel(filepath.Join(root, "app"), filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "app", "kustomization.yaml"), []byte("resources:\n- cm.yaml\n- "+ref+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Chdir(root)
		r := run(t, "render", "app")
		out := r.stdout + r.stderr
		if r.code != 2 || !strings.Contains(r.stderr, "outside the repository") || strings.Contains(out, symlinkCanary) {
			t.Fatalf("%s: want exit 2 refusing the path, got %d:\n%s", name, r.code, out)
		}
		seen = append(seen, strings.ReplaceAll(strings.ReplaceAll(out, root, "REPO"), name, "NAME"))
	}
	if seen[0] != seen[1] {
		t.Errorf("the output says whether the path exists:\nthere:\n%s\nmissing:\n%s", seen[0], seen[1])
	}
}
