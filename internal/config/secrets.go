package config

import (
	"fmt"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Redaction is the config's redaction rule: the default secret-like
// names, and the config's names and paths. A nil config has the defaults.
func (c *Config) Redaction() *model.Redaction {
	if c == nil {
		return &model.Redaction{}
	}
	return &model.Redaction{
		Names: c.Redact.Names,
		Paths: func(id model.ID, p fieldpath.Path) bool {
			return c.Redacts(id.Group, id.Kind, id.Namespace, id.Name, p)
		},
	}
}

// SkipSecrets leaves Secrets out when the config says so (secrets.skip),
// and returns a note naming them: they are not checked, and the report
// must say so rather than count them as clean.
func (c *Config) SkipSecrets(objs []model.Object) ([]model.Object, map[model.ID]bool, string) {
	if c == nil || !c.Secrets.Skip {
		return objs, nil, ""
	}
	kept := objs[:0:0]
	skipped := map[model.ID]bool{}
	var names []string
	for _, o := range objs {
		if o.ID.IsSecret() {
			skipped[o.ID] = true
			names = append(names, o.ID.String())
			continue
		}
		kept = append(kept, o)
	}
	if len(names) == 0 {
		return objs, nil, ""
	}
	const shown = 10
	list := names
	if len(list) > shown {
		list = append(list[:shown:shown], fmt.Sprintf("%d more", len(names)-shown))
	}
	return kept, skipped, fmt.Sprintf("not checked: %d %s (%s), as the repository config says (secrets.skip): drift, conflicts and dry-run errors of Secrets are unknown",
		len(names), model.Plural(len(names), "Secret", "Secrets"), strings.Join(list, ", "))
}
