// Package cli builds the ownership-check command tree. Flag names and exit
// statuses are a stable surface (docs/report.md).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/spf13/cobra"
	"k8s.io/klog/v2"
)

// Main runs the command line and returns the process exit status.
func Main(version string, args []string) int {
	return Run(version, args, os.Stdout, os.Stderr)
}

// Run is Main with explicit streams, for tests.
func Run(version string, args []string, stdout, stderr io.Writer) int {
	silenceClientLogs()
	root := NewRootCommand(version)
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(context.Background())
	code := exitCode(err)
	if err != nil && !errors.Is(err, errFindingsFailed) {
		fmt.Fprintf(stderr, "ownership-check: %s\n", check.Word(err, func(input string) string { return "--" + input }))
	}
	return code
}

// NewRootCommand builds the whole command tree.
func NewRootCommand(version string) *cobra.Command {
	root := &cobra.Command{
		Use:   "ownership-check",
		Short: "Predict what a Server-Side Apply deploy does to field ownership",
		Long: `ownership-check renders manifests, asks the cluster (or the last-deploy
snapshot) what a Server-Side Apply with force would do under the deploy's field
manager, and reports drift, conflicts, releases and split ownership.`,
		Version:       version,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate(versionLine(version))
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error {
		return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("%w (see --help)", err)}
	})
	root.AddCommand(
		newCheckCommand(version),
		newSnapshotCommand(version),
		newMigrateCommand(),
		newRenderCommand(),
		newHistoryCommand(),
		newTargetsCommand(),
		newActionCommand(version),
		newGitLabCommand(version),
		newVersionCommand(version),
	)
	addExamples(root)
	return root
}

// silenceClientLogs stops client-go's klog lines (e.g. discovery's
// "Unhandled Error" on an unreachable server) from reaching stderr: every
// failure they describe comes back as an error the tool words itself.
func silenceClientLogs() {
	klogOnce.Do(func() {
		fs := flag.NewFlagSet("klog", flag.ContinueOnError)
		klog.InitFlags(fs)
		// Errors still reach stderr above stderrthreshold unless it is raised.
		_ = fs.Set("logtostderr", "false")
		_ = fs.Set("stderrthreshold", "FATAL")
		klog.SetOutput(io.Discard)
	})
}

var klogOnce sync.Once
