package cli

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/cli/printer"
	ghaction "github.com/ownership-check/ownership-check/internal/github"

	"github.com/ownership-check/ownership-check/internal/migrate"
)

// migrateRunner is runMigrate; the action's tests replace it.
var migrateRunner = runMigrate

// migrateOptions are the flags of `migrate`.
type migrateOptions struct {
	commonOptions
	Scope        string
	FromManagers []string
	Apply        bool
}

func newMigrateCommand() *cobra.Command {
	var o migrateOptions
	cmd := &cobra.Command{
		Use:   "migrate PATH...",
		Short: "Take whole ownership of split-owned items (a plan unless --apply)",
		Long: `migrate renders PATHs like check and, for each object that exists live,
gives --field-manager whole ownership of:

  - list items whose fields it owns in part while other managers own the
    rest (split ownership: a deploy that removes such an item leaves a
    partial one behind, which often fails validation); all of them, or only
    those at or below --scope, e.g. .spec.template.spec.initContainers or
    '.spec.template.spec.initContainers[name="base-os-bash"]' as the
    split-ownership finding prints it;
  - the fields of client-side-apply managers: Update entries that own the
    kubectl.kubernetes.io/last-applied-configuration annotation, or that
    --from-manager names (k8s.io/client-go/util/csaupgrade).

Without --apply it prints the plan and changes nothing. With --apply it
rewrites each object's managedFields in one request pinned to the
resourceVersion it planned from: the object's content does not change, and
an object written by anyone since is refused with a conflict and left as it
was (run migrate again). A second run finds nothing to do.

Exit status: 0 done (or planned); 2 the tool could not do its job, or an
object could not be migrated.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := migrateRunner(cmd.Context(), &o, args, cmd.OutOrStdout())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Scope, "scope", "", "only migrate items at or below this path, e.g. .spec.template.spec.initContainers")
	cmd.Flags().StringSliceVar(&o.FromManagers, "from-manager", nil, "client-side-apply managers to merge into --field-manager (besides those owning the last-applied annotation)")
	cmd.Flags().BoolVar(&o.Apply, "apply", false, "apply the plan (default: print it only)")
	return cmd
}

// runMigrate plans, prints and (with Apply) carries out the migration; the
// action entrypoint calls it too. Every error is exit status 2.
func runMigrate(ctx context.Context, o *migrateOptions, paths []string, stdout io.Writer) (*migrate.Plan, error) {
	res, err := check.Migrate(ctx, check.MigrateOptions{
		Target: o.target(""), Paths: paths, Scope: o.Scope, FromManagers: o.FromManagers, Apply: o.Apply,
	}, func(plan *migrate.Plan) { printer.Plan(stdout, plan) })
	if res == nil {
		return nil, &ExitCodeError{Code: ExitError, Err: err}
	}
	if res.Applied {
		printer.Outcomes(stdout, res.Outcomes)
	}
	printer.MigrateSummary(stdout, res.Plan, res.Applied, res.Outcomes)
	if err != nil {
		return res.Plan, &ExitCodeError{Code: ExitError, Err: err}
	}
	return res.Plan, nil
}

// migrate is the action's migrate mode: `migrate --apply` on the paths, so
// that the deploy that follows removes split items whole. It takes the
// split items the config removes and upgrades client-side-apply managers;
// the plan and what was done go to the log and the job summary.
func (run *actionRun) migrate(ctx context.Context) error {
	in := run.in
	o := &migrateOptions{
		commonOptions: commonOptions{
			FieldManager: in.FieldManager, Environment: in.Environment, SnapshotRepo: in.SnapshotRepo,
			SnapshotBranch: in.SnapshotBranch, Config: in.Config, Concurrency: check.DefaultConcurrency,
		},
		Apply: true,
	}
	cleanup, err := run.useKubeconfigInput(&o.commonOptions)
	defer cleanup()
	if err != nil {
		return run.toolError(err)
	}
	var out strings.Builder
	_, err = migrateRunner(ctx, o, in.Paths, io.MultiWriter(run.stdout, &out))
	title := "### ownership-check migrate: " + in.Environment + "\n\n"
	if err != nil {
		ghaction.AddSummary(run.a, title+"```\n"+out.String()+"```\n\n**Failed:** "+err.Error()+"\n")
		return run.toolError(err)
	}
	ghaction.AddSummary(run.a, title+"```\n"+out.String()+"```\n")
	return nil
}
