package cli

import (
	"github.com/spf13/cobra"

	"github.com/ownership-check/ownership-check/internal/action"
)

func newActionCommand(version string) *cobra.Command {
	return &cobra.Command{
		Use:   "action",
		Short: "GitHub Action entrypoint (reads INPUT_* and the GitHub context)",
		Long: `action is what action.yml runs: it reads the inputs (INPUT_*) and the GitHub
context (GITHUB_EVENT_PATH, GITHUB_API_URL, ...) and does what the mode input
says. In check mode on a pull request it writes the environment's section of
the pull request comment, the job summary, annotations and the outputs.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return action.Run(cmd.Context(), version, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
}
