package cli

import (
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/printer"
)

func newTargetsCommand() *cobra.Command {
	var o commonOptions
	var output string
	var render bool
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

Without --render, a target is listed as discovery sees it: CHECKED says
"no" with the reason when discovery knows it cannot be checked, and "not
rendered yet" otherwise, since some reasons (a config management plugin,
a dependency not vendored, an encrypted substitution source) only show
when it renders. --render renders each target as
render --target does, says "yes" with its objects or "no" with the reason
check would give, and ends with the coverage line check prints:
  coverage: 9 of 10 Kustomizations, 2 of 4 HelmReleases checked, 214 objects, 37 workloads; 3 not checked: 2 chart, 1 plugin
A target's cluster that is not in the kubeconfig is named on stderr: its
targets render without it.

A Flux Kustomization or HelmRelease, or an Argo CD Application, that a
target's render would apply but that is no target of its own (that render
fails or leaves it out, or the target is not checked) is listed under that
target ("└"), with why.

--output json prints an array of {"name", "source", "object", "paths",
"fieldManager", "cluster", "checked", "reason"}, with "rendered": true,
"objects" and "workloads" for a target --render rendered, and
"notTargets": [{"kind", "name", "object", "line", "reason"}].`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return command.Targets(cmd.Context(), o.target(), o.runOptions(""), output, render, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.Config, "config", "", "repository config file (default .ownership-check.yaml if present)")
	fs.StringVar(&o.FieldManager, "field-manager", "", "field manager of a listed target whose config gives none")
	fs.StringVarP(&output, "output", "o", printer.TargetsFormats.Default(), printer.TargetsFormats.Choice())
	fs.BoolVar(&render, "render", false, "render each target to say whether check will check it, and end with the coverage line")
	o.addChartCacheFlag(fs)
	o.addOfflineChartsFlag(fs)
	return cmd
}
