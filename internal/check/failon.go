package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// DefaultFailOn is the spec's default set of categories that fail the check.
const DefaultFailOn = "drift,taking-conflict,update-conflict,split-ownership,error"

// failOnNames are the words --fail-on accepts: every category of the spec
// (model.Categories), and "error" for dry-run-error, the objects that could
// not be checked.
var failOnNames = func() map[string][]model.Category {
	// A change refused for an immutable field fails the apply as any
	// refusal does: "error" covers it.
	m := map[string][]model.Category{"error": {model.DryRunError, model.RecreateRequired}}
	for _, c := range model.Categories {
		m[string(c)] = []model.Category{c}
	}
	return m
}()

// FailPolicy is the set of categories that fail the check.
type FailPolicy map[model.Category]bool

// ParseFailOn reads the --fail-on value. An unknown word is an error rather
// than silently ignored: a typo must not turn a required check green.
func ParseFailOn(s string) (FailPolicy, error) {
	p := FailPolicy{}
	s = strings.TrimSpace(s)
	if s == "none" {
		return p, nil
	}
	for _, word := range strings.Split(s, ",") {
		word = strings.TrimSpace(word)
		if word == "" {
			continue
		}
		cats, ok := failOnNames[word]
		if !ok {
			return nil, fmt.Errorf("--fail-on: unknown category %q (use a comma list of %s, or none)", word, strings.Join(failOnWords(), ","))
		}
		for _, c := range cats {
			p[c] = true
		}
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("--fail-on: empty; use none to never fail on findings")
	}
	return p, nil
}

func failOnWords() []string {
	words := make([]string, 0, len(failOnNames))
	for w := range failOnNames {
		words = append(words, w)
	}
	sort.Strings(words)
	return words
}
