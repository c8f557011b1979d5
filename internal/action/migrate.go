package action

import (
	"context"
	"io"
	"strings"

	"github.com/ownership-check/ownership-check/internal/check"
	ghaction "github.com/ownership-check/ownership-check/internal/github"
)

// migrate is the action's migrate mode: `migrate --apply` on the paths, so
// that the deploy that follows removes split items whole. It takes the
// split items the config removes and upgrades client-side-apply managers;
// the plan and what was done go to the log and the job summary.
func (run *actionRun) migrate(ctx context.Context) error {
	in := run.in
	o := check.MigrateOptions{Target: run.target(), Paths: in.Paths, Apply: true}
	cleanup, err := run.useKubeconfigInput(&o.Target)
	defer cleanup()
	if err != nil {
		return run.toolError(err)
	}
	var out strings.Builder
	_, err = migrateRunner(ctx, o, run.runOptions(), io.MultiWriter(run.stdout, &out))
	title := "### ownership-check migrate: " + in.Environment + "\n\n"
	if err != nil {
		ghaction.AddSummary(run.a, title+"```\n"+out.String()+"```\n\n**Failed:** "+err.Error()+"\n")
		return run.toolError(err)
	}
	ghaction.AddSummary(run.a, title+"```\n"+out.String()+"```\n")
	return nil
}
