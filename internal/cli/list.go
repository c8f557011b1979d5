package cli

import (
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/printer"
)

func newTargetsCommand() *cobra.Command {
	var o commonOptions
	var output string
	cmd := &cobra.Command{
		Use:   "targets",
		Short: "List the repository's targets: listed in the config or discovered from GitOps objects",
		Long: `targets lists every target of the repository: those the repository config
lists (source config) and those discovered from the deployer's own objects
under its discover: entries (Flux Kustomizations, Argo CD Applications and
the Applications ApplicationSets make; docs/gitops.md), each with its field
manager, cluster, the file of its GitOps object and its paths, or why it
is not checked. A target whose chart is remote is checked when its chart
can be fetched (into --chart-cache; with --offline, found there), else not
checked with the reason.

--output json prints an array of {"name", "source", "object", "paths",
"fieldManager", "cluster", "checked", "reason"}.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return command.Targets(cmd.Context(), o.target(""), output, cmd.OutOrStdout())
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Config, "config", "", "repository config file (default .ownership-check.yaml if present)")
	fs.StringVar(&o.FieldManager, "field-manager", "", "field manager of a listed target whose config gives none")
	fs.StringVarP(&output, "output", "o", printer.TargetsFormats.Default(), printer.TargetsFormats.Choice())
	o.addChartCacheFlag(fs)
	o.addOfflineChartsFlag(fs)
	return cmd
}
