package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadDefaultWhenAbsent(t *testing.T) {
	t.Chdir(t.TempDir())
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Ignore) != 0 || c.Kustomize != (KustomizeOptions{}) || c.File != "" {
		t.Errorf("not the defaults: %+v", c)
	}
}

func TestLoadExplicitMissing(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Fatalf("want an error naming the file, got %v", err)
	}
}

func TestLoadFromWorkingDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	writeFile(t, dir, DefaultFile, `
ignore:
  - path: .spec.replicas
    kind: Deployment
    group: apps
    name: web-*
    reason: scaled by the HorizontalPodAutoscaler
  - path: .metadata.annotations.kubectl.kubernetes.io/restartedAt
kustomize:
  allowHelm: true
`)
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	if c.File != DefaultFile || !c.Kustomize.AllowHelm || c.Kustomize.AllowRemote || len(c.Ignore) != 2 {
		t.Fatalf("unexpected config %+v", c)
	}
	got := c.IgnoredPaths("apps", "Deployment", "prod", "web-1")
	if len(got) != 2 || got[0].String() != ".spec.replicas" {
		t.Errorf("IgnoredPaths = %v", got)
	}
	if got := c.IgnoredPaths("apps", "StatefulSet", "prod", "web-1"); len(got) != 1 {
		t.Errorf("StatefulSet: %v", got)
	}
	if got := c.IgnoredPaths("apps", "Deployment", "prod", "api"); len(got) != 1 {
		t.Errorf("name pattern: %v", got)
	}
	if !c.IsIgnored("apps", "Deployment", "p", "web-2", fieldpath.MakePathOrDie("spec", "replicas")) {
		t.Error("replicas should be ignored")
	}
	if c.IsIgnored("apps", "Deployment", "p", "web-2", fieldpath.MakePathOrDie("spec", "paused")) {
		t.Error("paused should not be ignored")
	}
}

func TestLoadErrors(t *testing.T) {
	// Each error names the file's line and the key, in YAML's words.
	cases := map[string]struct{ content, want string }{
		"unknown field":   {"ignore:\n  - path: .spec.replicas\n    kinds: Deployment\n", `cfg.yaml:3: ignore[0]: unknown key "kinds"`},
		"unknown top":     {"kustomize:\n  allowEverything: true\n", `cfg.yaml:2: kustomize: unknown key "allowEverything"`},
		"duplicate key":   {"kustomize:\n  allowHelm: false\n  allowHelm: true\n", "allowHelm"},
		"bad path":        {"ignore:\n  - path: spec.replicas\n", "cfg.yaml:2: ignore[0]: "},
		"identity":        {"ignore:\n  - path: .metadata\n", "identifies the object"},
		"wildcard top":    {"ignore:\n  - path: .*\n", "identifies the object"},
		"bad name glob":   {"ignore:\n  - path: .spec.replicas\n    name: '[web'\n", "bad pattern"},
		"wrong type":      {"redact:\n  names: DB_PASSWORD\n", "cfg.yaml:2: redact.names: a string where a list of strings goes"},
		"target path":     {"targets:\n  - name: a\n    paths: [a]\n  - name: b\n    paths:\n      - ../up\n", `cfg.yaml:6: targets[1].paths[0]: "../up" of target b`},
		"target twice":    {"targets:\n  - name: a\n    paths: [a]\n  - name: a\n    paths: [b]\n", "cfg.yaml:4: targets[1].name: a: two targets"},
		"not yaml at all": {"ignore: [", "config"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			p := writeFile(t, t.TempDir(), "cfg.yaml", c.content)
			_, err := Load(p)
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q should name %s and contain %q", err, p, c.want)
			}
			if strings.Contains(err.Error(), "JSON") {
				t.Errorf("error %q speaks of JSON in a YAML file", err)
			}
		})
	}
}

func TestSelectsCoreGroup(t *testing.T) {
	r := IgnoreRule{Path: ".data", Group: CoreGroup, Kind: "ConfigMap"}
	if !r.Selects("", "ConfigMap", "ns", "x") || r.Selects("example.com", "ConfigMap", "ns", "x") {
		t.Error("core group selection")
	}
	if !(IgnoreRule{Path: ".data"}).Selects("example.com", "Widget", "", "w") {
		t.Error("empty selector selects everything")
	}
}

func TestNilConfig(t *testing.T) {
	var c *Config
	if c.IgnoredPaths("", "ConfigMap", "", "x") != nil || c.Validate() != nil {
		t.Error("nil config has no rules")
	}
}

// TestRepositories: more URLs of this repository are read, an empty one is
// an error naming its place.
func TestRepositories(t *testing.T) {
	c, err := Parse("c.yaml", []byte("repositories: [https://github.com/org/fleet, git@github.com:org/fleet.git]\n"))
	if err != nil || len(c.Repositories) != 2 || c.Repositories[1] != "git@github.com:org/fleet.git" {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := Parse("c.yaml", []byte("repositories: ['']\n")); err == nil || !strings.Contains(err.Error(), "repositories[0]") {
		t.Errorf("empty URL: %v", err)
	}
}
