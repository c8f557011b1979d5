package argocd

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// argoBuildOptions is the installation's kustomize.buildOptions (argocd-cm),
// the flags its repo server adds to `kustomize build`, as discovery wrote
// them on the Application (delivery.ArgoKustomizeBuildOptionsKey).
type argoBuildOptions struct {
	raw string
	// from is where discovery read them, or why it could not tell.
	from string
	// enableHelm: kustomize inflates helmCharts (the repo server's
	// isHelmEnabled: the flag anywhere in the options).
	enableHelm bool
	// loadRestrictorNone: --load-restrictor LoadRestrictionsNone, files
	// outside a kustomization's directory may be loaded.
	loadRestrictorNone bool
}

func (a *Application) buildOptions() argoBuildOptions {
	ann := a.Metadata.Annotations
	o := argoBuildOptions{raw: ann[delivery.ArgoKustomizeBuildOptionsKey], from: ann[delivery.ArgoKustomizeBuildOptionsFromKey]}
	o.enableHelm = strings.Contains(o.raw, "--enable-helm")
	fields := strings.Fields(o.raw)
	for i, f := range fields {
		switch {
		case f == "--load-restrictor" && i+1 < len(fields):
			o.loadRestrictorNone = fields[i+1] == "LoadRestrictionsNone"
		case strings.HasPrefix(f, "--load-restrictor="):
			o.loadRestrictorNone = strings.TrimPrefix(f, "--load-restrictor=") == "LoadRestrictionsNone"
		}
	}
	return o
}

// kustomizeOptions are the render's kustomize permissions as this
// installation's kustomize has them: the load restrictor its options set
// (the guarded file system still keeps every read inside the
// repository), and helm never run by kustomize when the options do not
// enable it (Argo CD's kustomize fails then; with them, helmCharts render
// in process).
func (o argoBuildOptions) kustomizeOptions(opts config.KustomizeOptions) config.KustomizeOptions {
	if o.loadRestrictorNone {
		opts.AllowLoadOutsideRoot = true
	}
	if !o.enableHelm {
		opts.AllowHelm = false
	}
	return opts
}

// helmDisabled is the error of a kustomization with helmCharts that this
// installation's kustomize refuses, as Argo CD's render fails on it.
func (o argoBuildOptions) helmDisabled(app, file, field string) error {
	setting := "no argocd-cm with kustomize.buildOptions was found in the repository"
	switch {
	case o.raw != "" && o.from != "":
		setting = fmt.Sprintf("its kustomize.buildOptions are %q (%s)", o.raw, o.from)
	case o.raw != "":
		setting = fmt.Sprintf("its kustomize.buildOptions are %q", o.raw)
	case strings.HasPrefix(o.from, delivery.ArgoBuildOptionsAmbiguous):
		setting = "the installation's kustomize.buildOptions are " + o.from
	case o.from != "":
		setting = fmt.Sprintf("its kustomize.buildOptions are empty (%s)", o.from)
	}
	return fmt.Errorf("%s: %s: Argo CD's kustomize builds without --enable-helm, which refuses helmCharts, so Argo CD fails to render Application %s too; %s. Add --enable-helm to argocd-cm's kustomize.buildOptions, or give the discover entry's kustomizeBuildOptions (docs/gitops.md)", file, field, app, setting)
}
