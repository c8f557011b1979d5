package model

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// failOnNames are the words --fail-on accepts: every category of the table,
// and each row's short alias ("error": the objects that could not be
// applied, a dry-run refusal or an immutable field).
var failOnNames = func() map[string][]Category {
	m := map[string][]Category{}
	for _, r := range CategoryTable() {
		m[string(r.Category)] = []Category{r.Category}
		if r.FailOnAlias != "" {
			m[r.FailOnAlias] = append(m[r.FailOnAlias], r.Category)
		}
	}
	return m
}()

// FailPolicy is the set of categories that fail the check.
type FailPolicy map[Category]bool

// ParseFailOn reads a --fail-on value. An unknown word is an error rather
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
			return nil, fmt.Errorf("unknown category %q (use a comma list of %s, or none)", word, strings.Join(failOnWords(), ","))
		}
		for _, c := range cats {
			p[c] = true
		}
	}
	if len(p) == 0 {
		return nil, errors.New("empty; use none to never fail on findings")
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

// CausePolicy is the set of causes whose findings --fail-on fails.
type CausePolicy map[Cause]bool

// failOnCauseNames are the words --fail-on-cause accepts: every cause
// that has a word of its own, selecting the causes that go with it.
var failOnCauseNames, failOnCauseWords = func() (map[Cause][]Cause, []string) {
	m := map[Cause][]Cause{}
	var words []string
	for _, r := range CauseTable() {
		w := r.FailOnWord()
		if _, seen := m[w]; !seen {
			words = append(words, string(w))
		}
		m[w] = append(m[w], r.Cause)
	}
	return m, words
}()

// FailOnCauseWords are --fail-on-cause's words in the cause table's
// order, and the causes each selects (a word selects its own cause and
// those that go with it).
func FailOnCauseWords() ([]string, map[Cause][]Cause) {
	return slices.Clone(failOnCauseWords), maps.Clone(failOnCauseNames)
}

// ParseFailOnCause reads --fail-on-cause: a comma list of the causes'
// words, or all. An unknown word is an error: a typo must not change
// which findings fail a required check.
func ParseFailOnCause(s string) (CausePolicy, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultFailOnCause()
	}
	p := CausePolicy{}
	for _, word := range strings.Split(s, ",") {
		word = strings.TrimSpace(word)
		switch cs, ok := failOnCauseNames[Cause(word)]; {
		case word == "":
		case word == "all":
			for _, c := range Causes {
				p[c] = true
			}
		case ok:
			for _, c := range cs {
				p[c] = true
			}
		default:
			return nil, fmt.Errorf("unknown cause %q (use a comma list of %s, or all)", word, strings.Join(failOnCauseWords, ", "))
		}
	}
	if len(p) == 0 {
		return nil, fmt.Errorf("empty; use %s or all", strings.Join(failOnCauseWords, ", "))
	}
	return p, nil
}
