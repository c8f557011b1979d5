package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// discoveryTimeout bounds each request render makes to a cluster: it only
// asks discovery which kinds are namespaced, and must not hang on an
// unreachable one.
const discoveryTimeout = 10 * time.Second

func newRenderCommand() *cobra.Command {
	var o commonOptions
	var showSecrets bool
	cmd := &cobra.Command{
		Use:   "render PATH...",
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
"default" and a built-in list of cluster-scoped kinds are used.`,
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return &ExitCodeError{Code: ExitError, Err: fmt.Errorf("render: no PATH given: pass kustomization directories, directories of YAML files or YAML files")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRender(cmd.Context(), &o, args, showSecrets, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().BoolVar(&showSecrets, "show-secrets", false, "print Secret values instead of (hidden), for piping into a deploy")
	return cmd
}

func runRender(ctx context.Context, o *commonOptions, paths []string, showSecrets bool, stdout, stderr io.Writer) error {
	if ctx == nil {
		ctx = context.Background()
	}
	fail := func(err error) error { return &ExitCodeError{Code: ExitError, Err: err} }
	cfg, err := config.Load(o.Config)
	if err != nil {
		return fail(err)
	}
	opts := render.Options{Config: cfg}
	opts.Namespace, opts.Scope, err = renderTarget(o, stderr)
	if err != nil {
		return fail(err)
	}
	objs, err := render.Render(ctx, paths, opts)
	if err != nil {
		return fail(err)
	}
	if err := render.EncodeWith(stdout, objs, render.EncodeOptions{ShowSecrets: showSecrets}); err != nil {
		return fail(err)
	}
	return nil
}

// renderTarget gives the default namespace and the scope resolver: from
// the kubeconfig when one loads, else --namespace or "default" and the
// built-in list. A kubeconfig or context named explicitly must load.
func renderTarget(o *commonOptions, stderr io.Writer) (string, render.ScopeResolver, error) {
	restCfg, ns, err := kube.LoadConfig(kube.LoadOptions{Kubeconfig: o.Kubeconfig, Context: o.Context, Namespace: o.Namespace})
	if err != nil {
		if o.Kubeconfig != "" || o.Context != "" {
			return "", nil, err
		}
		if o.Namespace != "" {
			return o.Namespace, nil, nil
		}
		return "default", nil, nil
	}
	restCfg.Timeout = discoveryTimeout
	client, err := kube.New(restCfg, ns, 1)
	if err != nil {
		return "", nil, err
	}
	return ns, &bestEffortScope{client: client, warn: stderr}, nil
}

// bestEffortScope asks discovery, and after the first failure to reach the
// cluster answers "unknown kind" so that render falls back to the built-in
// list: render works without a cluster, and says so once.
type bestEffortScope struct {
	client *kube.Client
	warn   io.Writer
	failed bool
}

func (s *bestEffortScope) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	if !s.failed {
		namespaced, err := s.client.IsNamespaced(gvk)
		if err == nil || meta.IsNoMatchError(err) {
			return namespaced, err
		}
		s.failed = true
		fmt.Fprintf(s.warn, "ownership-check: render: cluster discovery unavailable (%v); telling namespaced kinds from the built-in list\n", err)
	}
	return false, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}
