package check

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// DefaultFailOn is the spec's default set of categories that fail the
// check, read from the category table.
var DefaultFailOn = model.DefaultFailOn()

// failOnNames are the words --fail-on accepts: every category of the table,
// and each row's short alias ("error": the objects that could not be
// applied, a dry-run refusal or an immutable field).
var failOnNames = func() map[string][]model.Category {
	m := map[string][]model.Category{}
	for _, r := range model.CategoryTable() {
		m[string(r.Category)] = []model.Category{r.Category}
		if r.FailOnAlias != "" {
			m[r.FailOnAlias] = append(m[r.FailOnAlias], r.Category)
		}
	}
	return m
}()

// FailOnHelp is --fail-on's help: every word it takes, from the table.
func FailOnHelp() string {
	var b strings.Builder
	b.WriteString("categories that fail the check: comma list of")
	aliases := map[string][]string{}
	var aliasOrder []string
	for _, c := range model.Categories {
		r, _ := model.InfoOf(c)
		fmt.Fprintf(&b, "\n  %-18s %s (%s)", r.Category, r.Meaning, r.Level)
		if r.FailOnAlias != "" {
			if _, seen := aliases[r.FailOnAlias]; !seen {
				aliasOrder = append(aliasOrder, r.FailOnAlias)
			}
			aliases[r.FailOnAlias] = append(aliases[r.FailOnAlias], string(r.Category))
		}
	}
	for _, a := range aliasOrder {
		fmt.Fprintf(&b, "\n  %-18s short for %s", a, model.JoinAnd(aliases[a]))
	}
	b.WriteString("\nor none")
	return b.String()
}

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
			return nil, inputError("fail-on", "unknown category %q (use a comma list of %s, or none)", word, strings.Join(failOnWords(), ","))
		}
		for _, c := range cats {
			p[c] = true
		}
	}
	if len(p) == 0 {
		return nil, inputError("fail-on", "empty; use none to never fail on findings")
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

// DefaultFailOnCause fails the pull request for its own findings only
// (unknown included: without a base, fail closed), read from the cause
// table.
var DefaultFailOnCause = model.DefaultFailOnCause()

// CausePolicy is the set of causes whose findings --fail-on fails.
type CausePolicy map[model.Cause]bool

// failOnCauseNames are the words --fail-on-cause accepts: every cause
// that has a word of its own, selecting the causes that go with it.
var failOnCauseNames, failOnCauseWords = func() (map[model.Cause][]model.Cause, []string) {
	m := map[model.Cause][]model.Cause{}
	var words []string
	for _, r := range model.CauseTable() {
		w := r.FailOnWord()
		if _, seen := m[w]; !seen {
			words = append(words, string(w))
		}
		m[w] = append(m[w], r.Cause)
	}
	return m, words
}()

// FailOnCauseHelp is --fail-on-cause's help: every word it takes, from
// the table.
func FailOnCauseHelp() string {
	words := make([]string, len(failOnCauseWords))
	for i, w := range failOnCauseWords {
		words[i] = w
		var with []string
		for _, c := range failOnCauseNames[model.Cause(w)] {
			if c != model.Cause(w) {
				with = append(with, string(c))
			}
		}
		if len(with) > 0 {
			words[i] += " (which includes " + model.JoinAnd(with) + ")"
		}
	}
	return "causes whose findings --fail-on fails: comma list of " + strings.Join(words, ", ") +
		", or all; an object that could not be checked fails whatever its cause"
}

// ParseFailOnCause reads --fail-on-cause: a comma list of the causes'
// words, or all. An unknown word is an error: a typo must not change
// which findings fail a required check.
func ParseFailOnCause(s string) (CausePolicy, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		s = DefaultFailOnCause
	}
	p := CausePolicy{}
	for _, word := range strings.Split(s, ",") {
		word = strings.TrimSpace(word)
		switch cs, ok := failOnCauseNames[model.Cause(word)]; {
		case word == "":
		case word == "all":
			for _, c := range model.Causes {
				p[c] = true
			}
		case ok:
			for _, c := range cs {
				p[c] = true
			}
		default:
			return nil, inputError("fail-on-cause", "unknown cause %q (use a comma list of %s, or all)", word, strings.Join(failOnCauseWords, ", "))
		}
	}
	if len(p) == 0 {
		return nil, inputError("fail-on-cause", "empty; use %s or all", strings.Join(failOnCauseWords, ", "))
	}
	return p, nil
}
