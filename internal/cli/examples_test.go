package cli

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestExamples: every command's help has examples, and every example
// line names its command and uses only flags the command has.
func TestExamples(t *testing.T) {
	root := NewRootCommand("v0.0.0-test")
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Hidden || c.Name() == "help" || c.Name() == "completion" {
			return
		}
		if c.Example == "" {
			t.Errorf("%s has no examples", c.CommandPath())
		}
		for _, line := range strings.Split(c.Example, "\n") {
			words := strings.Fields(line)
			i := 0
			for i < len(words) && strings.Contains(words[i], "=") && !strings.HasPrefix(words[i], "-") {
				i++ // an environment variable
			}
			if i >= len(words) || words[i] != "ownership-check" {
				continue
			}
			want := strings.Fields(c.CommandPath())
			if c != root && (len(words) < i+2 || words[i+1] != want[len(want)-1]) {
				t.Errorf("%s: example %q runs another command", c.CommandPath(), line)
				continue
			}
			sub := c
			if c == root {
				sub, _, _ = root.Find(words[i+1 : i+2])
			}
			for _, w := range words[i:] {
				if w == "|" {
					break
				}
				if !strings.HasPrefix(w, "-") {
					continue
				}
				name := strings.TrimLeft(strings.SplitN(w, "=", 2)[0], "-")
				var found bool
				if strings.HasPrefix(w, "--") {
					found = sub.Flags().Lookup(name) != nil || sub.InheritedFlags().Lookup(name) != nil
				} else {
					found = sub.Flags().ShorthandLookup(name) != nil
				}
				if !found {
					t.Errorf("%s: example %q uses %s, which it does not have", c.CommandPath(), line, w)
				}
			}
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}
