package model

import (
	"strings"
	"testing"
)

func TestParseFailOn(t *testing.T) {
	p, err := ParseFailOn(DefaultFailOn())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []Category{Drift, TakingConflict, UpdateConflict, SplitOwnership, DryRunError} {
		if !p[c] {
			t.Errorf("default policy does not fail on %s", c)
		}
	}
	if p[Reset] || p[Taking] {
		t.Errorf("default policy fails on notes: %v", p)
	}
	none, err := ParseFailOn("none")
	if err != nil || len(none) != 0 {
		t.Fatalf("none = %v, %v", none, err)
	}
	if _, err := ParseFailOn("drift,drfit"); err == nil || !strings.Contains(err.Error(), `"drfit"`) {
		t.Fatalf("typo accepted or not named: %v", err)
	}
	if _, err := ParseFailOn(" , "); err == nil {
		t.Fatal("empty list accepted")
	}
}

// Every category of the spec can fail the check: an object deleted out of
// band is a drift, and a team may want new or removed objects reviewed too.
func TestParseFailOnEveryCategory(t *testing.T) {
	for _, c := range Categories {
		p, err := ParseFailOn(string(c))
		if err != nil {
			t.Errorf("--fail-on %s: %v", c, err)
			continue
		}
		if len(p) != 1 || !p[c] {
			t.Errorf("--fail-on %s = %v", c, p)
		}
	}
	p, err := ParseFailOn("new,removed,error")
	if err != nil || !p[New] || !p[Removed] || !p[DryRunError] {
		t.Fatalf("new,removed,error = %v, %v", p, err)
	}
}
