package cli

import (
	"github.com/spf13/cobra"
)

func newRenderCommand() *cobra.Command {
	var o commonOptions
	cmd := &cobra.Command{
		Use:   "render [PATH...]",
		Short: "Print the objects exactly as check and snapshot see them",
		RunE: func(cmd *cobra.Command, args []string) error {
			return notImplemented("render")
		},
	}
	o.addFlags(cmd.Flags())
	return cmd
}
