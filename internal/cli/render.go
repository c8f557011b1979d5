package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/printer"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/spf13/cobra"
)

func newRenderCommand() *cobra.Command {
	var o commonOptions
	var showSecrets bool
	var target string
	cmd := &cobra.Command{
		Use:   "render PATH... | --target NAME",
		Short: "Print the objects exactly as check and snapshot see them",
		Long: `render prints the objects the deploy applies, as check and snapshot see
them: kustomizations built in-process, namespaces defaulted as kubectl does,
the repository config's ignored fields removed, sorted by identity. Each
object is preceded by a comment naming its source file and line.

Secret values are hidden unless --show-secrets is given; with it the output
is exactly what the deploy should apply, e.g.
  ownership-check render --show-secrets deploy/prod | kubectl apply --server-side -f -

A cluster is optional: when a kubeconfig is available, its context gives the
default namespace and discovery tells which kinds are namespaced; otherwise
"default" and a built-in list of cluster-scoped kinds are used, with the
CustomResourceDefinitions of the render. A custom kind nothing knows is
taken as namespaced, and a "# Note:" comment says the scope was guessed.

--target NAME renders one of the repository's targets (ownership-check
targets lists them) as its deploy does: a discovered target exactly as its
controller renders it, which is what the controller would apply. A target
that is not checked prints nothing: the reason goes to stderr and the exit
status is 2, so that a script never takes "nothing" for an empty render.

A chart a deployer names by reference (a HelmRelease's HelmRepository or
OCIRepository, an Argo CD Helm source's repoURL) is fetched into
--chart-cache with the hosts and credentials of the repository config's
charts: section (docs/remote-charts.md); --offline reads the cache alone.`,
		Args: func(_ *cobra.Command, args []string) error {
			if target != "" {
				if len(args) > 0 {
					return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("render: give PATHs or --target, not both: a target's paths are in the repository")}
				}
				return nil
			}
			if len(args) == 0 {
				return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("render: no PATH given: pass kustomization directories, directories of YAML files or YAML files")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRender(cmd.Context(), &o, args, target, showSecrets, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.addRenderFlags(cmd.Flags())
	o.addOfflineChartsFlag(cmd.Flags())
	cmd.Flags().StringVar(&target, "target", "", "render this target of the repository (listed or discovered) instead of PATHs")
	cmd.Flags().BoolVar(&showSecrets, "show-secrets", false, "print Secret values instead of (hidden), for piping into a deploy")
	return cmd
}

func runRender(ctx context.Context, o *commonOptions, paths []string, target string, showSecrets bool, stdout, stderr io.Writer) error {
	t := o.target()
	var objs []model.Object
	var warnings []error
	var err error
	if target != "" {
		objs, warnings, err = command.RenderTarget(ctx, t, o.runOptions(""), target, showSecrets)
	} else {
		objs, warnings, err = command.Render(ctx, t, o.runOptions(""), paths, check.RenderOptions{ShowSecrets: showSecrets})
	}
	printer.Warnings(stderr, "ownership-check: ", warnings)
	if err == nil {
		err = render.EncodeWith(stdout, objs, render.EncodeOptions{ShowSecrets: showSecrets})
	}
	if err != nil {
		return &ExitCodeError{Code: ExitError, Err: err}
	}
	return nil
}
