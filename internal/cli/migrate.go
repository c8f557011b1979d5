package cli

import (
	"github.com/spf13/cobra"
)

func newMigrateCommand() *cobra.Command {
	var o commonOptions
	var scope string
	var fromManagers []string
	var apply bool
	cmd := &cobra.Command{
		Use:   "migrate [PATH...]",
		Short: "Take whole ownership of split-owned items (a plan unless --apply)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return notImplemented("migrate")
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&scope, "scope", "", "only migrate under this path, e.g. .spec.template.spec.initContainers")
	cmd.Flags().StringSliceVar(&fromManagers, "from-manager", nil, "client-side-apply managers to merge into --field-manager")
	cmd.Flags().BoolVar(&apply, "apply", false, "apply the plan (default: print it only)")
	return cmd
}
