package cli

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The help of the two policy flags is written from model's tables, so a
// new category or cause is in the help with its row.

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

// FailOnCauseHelp is --fail-on-cause's help: every word it takes, from
// the table.
func FailOnCauseHelp() string {
	causeWords, selects := model.FailOnCauseWords()
	words := make([]string, len(causeWords))
	for i, w := range causeWords {
		words[i] = w
		var with []string
		for _, c := range selects[model.Cause(w)] {
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
