package config

import (
	"strings"
	"testing"
)

func mustParse(t *testing.T, y string) *Config {
	t.Helper()
	c, err := Parse("test.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestChanges(t *testing.T) {
	base := mustParse(t, `
ignore:
- path: .spec.replicas
  kind: Deployment
  group: apps
`)
	head := mustParse(t, `
# a comment and another order change nothing
ignore:
- group: apps
  kind: Deployment
  path: .spec.replicas
- path: .spec.template.spec.containers[name="app"].image
  kind: Deployment
  reason: set by the image updater
kustomize:
  allowExecPlugins: true
`)
	got := strings.Join(Changes(base, head), "\n")
	want := strings.Join([]string{
		`adds to ignore: path .spec.template.spec.containers[name="app"].image, kind Deployment, reason set by the image updater`,
		"turns on kustomize.allowExecPlugins",
	}, "\n")
	if got != want {
		t.Errorf("changes:\n%s\nwant:\n%s", got, want)
	}
	if got := Changes(head, base); len(got) != 2 || got[0] != "removes from ignore: "+strings.TrimPrefix(strings.Split(want, "\n")[0], "adds to ignore: ") || got[1] != "turns off kustomize.allowExecPlugins" {
		t.Errorf("the reverse: %q", got)
	}
	if got := Changes(nil, base); len(got) != 1 || !strings.HasPrefix(got[0], "adds to ignore: path .spec.replicas") {
		t.Errorf("from no file: %q", got)
	}
	if got := Changes(base, mustParse(t, "ignore: [{path: .spec.replicas, kind: Deployment, group: apps}]")); len(got) != 0 {
		t.Errorf("the same rules in flow style: %q", got)
	}
}
