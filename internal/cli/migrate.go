package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/cli/printer"
	ghaction "github.com/ownership-check/ownership-check/internal/github"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/migrate"
	"github.com/ownership-check/ownership-check/internal/render"
)

// migrateRunner is runMigrate; the action's tests replace it.
var migrateRunner = runMigrate

// migrateDeadline bounds the whole cluster conversation of one migrate.
const migrateDeadline = 10 * time.Minute

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
	fail := func(err error) (*migrate.Plan, error) { return nil, &ExitCodeError{Code: ExitError, Err: err} }
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, migrateDeadline)
	defer cancel()
	if o.FieldManager == "" {
		return fail(errors.New("--field-manager is required: the manager name your deploy applies with (kubectl apply --server-side --field-manager=NAME)"))
	}
	opts := migrate.Options{FieldManager: o.FieldManager}
	for _, m := range o.FromManagers {
		if m = strings.TrimSpace(m); m != "" {
			opts.FromManagers = append(opts.FromManagers, m)
		}
	}
	if o.Scope != "" {
		scope, err := config.ParsePath(o.Scope)
		if err != nil {
			return fail(fmt.Errorf("--scope: %w", err))
		}
		opts.Scope = &scope
	}
	cfg, err := config.Load(o.Config)
	if err != nil {
		return fail(err)
	}
	client, err := kube.Load(kube.LoadOptions{
		Kubeconfig: o.Kubeconfig, Context: o.Context, Namespace: o.Namespace, Concurrency: o.Concurrency,
	})
	if err != nil {
		return fail(err)
	}
	objs, err := render.Render(ctx, paths, render.Options{Namespace: client.Namespace, Scope: client, Config: cfg})
	if err != nil {
		return fail(err)
	}
	plan, err := migrate.Make(ctx, client, objs, opts, o.Concurrency)
	if err != nil {
		return fail(err)
	}
	printer.Plan(stdout, plan)
	if !o.Apply || plan.Pending() == 0 {
		printer.MigrateSummary(stdout, plan, false, nil)
		return plan, nil
	}
	outcomes := plan.Apply(ctx, client)
	printer.Outcomes(stdout, outcomes)
	printer.MigrateSummary(stdout, plan, true, outcomes)
	var errs []error
	for _, oc := range outcomes {
		if oc.Err != nil {
			errs = append(errs, oc.Err)
		}
	}
	if len(errs) > 0 {
		return plan, &ExitCodeError{Code: ExitError, Err: errors.Join(errs...)}
	}
	return plan, nil
}

// migrate is the action's migrate mode: `migrate --apply` on the paths, so
// that the deploy that follows removes split items whole. It takes the
// split items the config removes and upgrades client-side-apply managers;
// the plan and what was done go to the log and the job summary.
func (run *actionRun) migrate(ctx context.Context) error {
	in := run.in
	o := &migrateOptions{
		commonOptions: commonOptions{
			FieldManager: in.FieldManager, Environment: in.Environment,
			SnapshotBranch: in.SnapshotBranch, Config: in.Config, Concurrency: 16,
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
