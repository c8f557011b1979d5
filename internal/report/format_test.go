package report

import (
	"errors"
	"strings"
	"testing"
)

// TestFormatsWriteOneAndMany: every format writes one report and the
// reports of many targets; a row without its many-report writer would
// print nothing (or another format) for `check --target`.
func TestFormatsWriteOneAndMany(t *testing.T) {
	a := &Report{SchemaVersion: SchemaVersion, Environment: "app-dev"}
	b := &Report{SchemaVersion: SchemaVersion, Environment: "app-prod"}
	a.Summarize()
	b.Summarize()
	es := []Entry{{Name: "app-dev", Report: a}, {Name: "app-prod", Report: b}, {Name: "app-qa", Err: errors.New("no cluster")}}
	for _, f := range formats {
		if f.write == nil || f.writeMany == nil {
			t.Errorf("format %s: a writer of one report and one of many are both needed", f.name)
			continue
		}
		var one, many strings.Builder
		if err := Write(&one, a, f.name, TextOptions{}); err != nil {
			t.Errorf("%s: one report: %v", f.name, err)
		}
		if err := WriteMany(&many, es, f.name, ManyOptions{Lead: "3 of 3 targets checked"}); err != nil {
			t.Errorf("%s: many: %v", f.name, err)
		}
		if !strings.Contains(one.String(), "app-dev") {
			t.Errorf("%s: one report does not name its environment:\n%s", f.name, one.String())
		}
		for _, env := range []string{"app-dev", "app-prod"} {
			if !strings.Contains(many.String(), env) {
				t.Errorf("%s: many reports lack %s:\n%s", f.name, env, many.String())
			}
		}
	}
	if err := WriteMany(&strings.Builder{}, es, "yaml", ManyOptions{}); err == nil {
		t.Error("an unknown format was written")
	}
}
