package shell

import "testing"

func TestWord(t *testing.T) {
	for in, want := range map[string]string{
		"deploy/prod":            "deploy/prod",
		`.spec.items[name="b"]`:  `'.spec.items[name="b"]'`,
		"it's":                   `'it'\''s'`,
		"":                       "''",
		"Deployment.apps/ns/web": "Deployment.apps/ns/web",
	} {
		if got := Word(in); got != want {
			t.Errorf("Word(%q) = %s, want %s", in, got, want)
		}
	}
}
