package check

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// redaction is the redaction rule of the repository config: the default
// secret-like names, and the config's names and paths.
func redaction(cfg *config.Config) *model.Redaction {
	if cfg == nil {
		return &model.Redaction{}
	}
	return &model.Redaction{
		Names: cfg.Redact.Names,
		Paths: func(id model.ID, p fieldpath.Path) bool {
			return cfg.Redacts(id.Group, id.Kind, id.Namespace, id.Name, p)
		},
	}
}

// hideRendered makes run, the run's set (the values read for a
// controller's values from Secrets), also hold what the render put into
// the objects from Secrets (model.Object.HiddenValues: a GitOps
// controller's substitution, a chart's lookup), and the analysis hide it
// wherever it is, in every finding, diff and message, and the report's
// writers mask it (assemble).
func (in analysis) hideRendered(run *model.Hidden, objs []model.Object) analysis {
	if run == nil {
		run = &model.Hidden{}
	}
	for _, o := range objs {
		run.Merge(o.HiddenValues)
	}
	in.Redaction.Hidden = run
	return in
}

// public makes an error's text fit for a pull request: no secret-like value
// of the object (a server's validation error may quote one; a Secret's
// values are gone already, predict hides them) and no address of the API
// server.
func (in analysis) public(msg string, res predict.Result) string {
	if !res.Object.ID.IsSecret() {
		// A Secret's values are gone already: predict scrubbed them.
		msg = in.Redaction.HiddenValues(res.Object.Object, res.Live).HideIn(msg)
	}
	return in.Public.Hide(msg)
}

// skipSecrets leaves Secrets out when the repository config says so, and
// returns a note naming them: they are not checked, and the report must
// say so rather than count them as clean.
func skipSecrets(cfg *config.Config, objs []model.Object) ([]model.Object, map[model.ID]bool, string) {
	if cfg == nil || !cfg.Secrets.Skip {
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
