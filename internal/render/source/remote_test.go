package source

import "testing"

func TestIsRemote(t *testing.T) {
	for ref, want := range map[string]bool{
		"deployment.yaml":       false,
		"../base":               false,
		"../../base/config":     false,
		"base":                  false,
		"overlays/prod":         false,
		"config/app.properties": false,
		"github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v3.3.1": true,
		"github.com/org/repo":                            true,
		"https://github.com/org/repo//dir?ref=main":      true,
		"https://raw.githubusercontent.com/o/r/m/a.yaml": true,
		"http://example.com/a.yaml":                      true,
		"git@github.com:org/repo.git//base":              true,
		"ssh://git@example.com/org/repo.git":             true,
		"file:///tmp/repo":                               true,
		"git::https://example.com/org/repo":              true,
		"gitlab.com/org/repo//base?ref=v1":               true,
		"example.com/org/repo.git//base":                 true,
	} {
		if got := IsRemote(ref); got != want {
			t.Errorf("isRemote(%q) = %v, want %v", ref, got, want)
		}
	}
}
