// Command helm is Helm 4's helm command line under the field manager its
// own name says. Helm's binary fixes its manager at "helm"; this one takes
// argv[0]'s base name, so that the same build applies as "helm" and, run
// through a link named helm-controller, as Flux's helm-controller applies
// with Helm 4 (Flux 2.8): the tests need both managers.
package main

import (
	"errors"
	"log/slog"
	"os"
	"path/filepath"

	// The client auth plugins, as Helm's own main loads them.
	_ "k8s.io/client-go/plugin/pkg/client/auth"

	helmcmd "helm.sh/helm/v4/pkg/cmd"
	"helm.sh/helm/v4/pkg/kube"
)

func main() {
	kube.ManagedFieldsManager = filepath.Base(os.Args[0])
	cmd, err := helmcmd.NewRootCmd(os.Stdout, os.Args[1:], helmcmd.SetupLogging)
	if err != nil {
		slog.Warn("command failed", slog.Any("error", err))
		os.Exit(1)
	}
	if err := cmd.Execute(); err != nil {
		if cerr, ok := errors.AsType[helmcmd.CommandError](err); ok {
			os.Exit(cerr.ExitCode)
		}
		os.Exit(1)
	}
}
