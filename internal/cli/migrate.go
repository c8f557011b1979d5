package cli

import (
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/check"

	"github.com/ownership-check/ownership-check/internal/command"
)

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
			_, err := command.Migrate(cmd.Context(), check.MigrateOptions{
				Target: o.target(), Paths: args, Scope: o.Scope, FromManagers: o.FromManagers, Apply: o.Apply,
			}, o.runOptions(""), cmd.OutOrStdout())
			return err
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Scope, "scope", "", "only migrate items at or below this path, e.g. .spec.template.spec.initContainers")
	cmd.Flags().StringSliceVar(&o.FromManagers, "from-manager", nil, "client-side-apply managers to merge into --field-manager (besides those owning the last-applied annotation)")
	cmd.Flags().BoolVar(&o.Apply, "apply", false, "apply the plan (default: print it only)")
	return cmd
}
