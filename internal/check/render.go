package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/values"
)

// discoveryTimeout bounds each request Render makes to a cluster: it only
// asks discovery which kinds are namespaced, and must not hang on an
// unreachable one.
const discoveryTimeout = 10 * time.Second

// RenderOptions are what render alone asks of Render.
type RenderOptions struct {
	// ClusterOptional renders without a cluster when the one named (a
	// target's context) cannot be loaded here, with a warning: render
	// --target in a job without that cluster's credentials.
	ClusterOptional bool
	// ShowSecrets leaves the values read from Secrets in the objects
	// Render returns (render --show-secrets).
	ShowSecrets bool
}

// Render returns the objects as check and snapshot see them, with a
// cluster when there is one: the kubeconfig's context gives the default
// namespace and discovery tells which kinds are namespaced; otherwise the
// target's namespace or "default" and the built-in list of cluster-scoped
// kinds are used. A kubeconfig or context named explicitly must load. The
// warnings (discovery that failed midway) come back with an error too.
func Render(ctx context.Context, t Target, paths []string, o RenderOptions) ([]model.Object, []error, error) {
	if err := t.requireRun(); err != nil {
		return nil, nil, err
	}
	cfg, charts := t.Run.Config, t.Run.Charts
	// Only a user asking to see the values reads them into the render.
	opts := render.Options{Config: cfg, Deployer: t.Deployer, Charts: charts, Trees: t.Run.Trees(), StandInSecrets: !o.ShowSecrets}
	var scope *kube.BestEffort
	var warnings []error
	var err error
	opts.Namespace, scope, err = renderTarget(t, o.ClusterOptional)
	if err != nil && o.ClusterOptional {
		cluster := "the target's cluster"
		if t.Context == "" {
			cluster = "the target's cluster, the kubeconfig's current context,"
		}
		warnings = append(warnings, fmt.Errorf("render: %s is not available here (%w); rendering without it", cluster, err))
		t.Kubeconfig, t.Context = "", ""
		opts.Namespace, scope, err = t.Namespace, nil, nil
		if opts.Namespace == "" {
			opts.Namespace = "default"
		}
	}
	if err != nil {
		return nil, nil, err
	}
	var client *kube.Client
	var versions func(string) string
	if scope != nil {
		opts.Scope = scope
		opts.ChartCluster = scope
		client = scope.Client
		versions = deployer.ControllerVersions(ctx, client, t.Deployer)
	}
	// As check renders it: with the deployer's Helm.
	opts.HelmEngine = render.HelmEngineFor(helmRender(t, versions, nil))
	vr := values.New(t.ValueDirs, client)
	opts.Values = vr
	objs, unrendered, _, err := renderChecked(ctx, paths, opts)
	for _, n := range unrendered {
		warnings = append(warnings, errors.New(n))
	}
	if hidden := vr.Hidden(); err == nil && !o.ShowSecrets && hidden.Len() > 0 {
		for _, o := range objs {
			if o.Object != nil {
				o.Object.Object = hidden.HideWithin(o.Object.Object).(map[string]any)
			}
		}
	}
	if scope != nil && scope.Err != nil {
		warnings = append(warnings, fmt.Errorf("render: cluster discovery unavailable (%w); telling namespaced kinds from the built-in list", scope.Err))
	}
	return objs, warnings, err
}

// renderTarget gives the default namespace and the scope resolver: from
// the kubeconfig when one loads, else the namespace or "default" and the
// built-in list (a nil resolver). A discovered target always names its
// cluster (a discover entry's `context: current` names the current one on
// purpose), so its render without one is said, never silent.
func renderTarget(t Target, clusterOptional bool) (string, *kube.BestEffort, error) {
	restCfg, ns, err := kube.LoadConfig(kube.LoadOptions{Kubeconfig: t.Kubeconfig, Context: t.Context, Namespace: t.Namespace})
	if err != nil {
		if t.Kubeconfig != "" || t.Context != "" || (clusterOptional && t.Deployer != nil) {
			return "", nil, err
		}
		if t.Namespace != "" {
			return t.Namespace, nil, nil
		}
		return "default", nil, nil
	}
	restCfg.Timeout = discoveryTimeout
	client, err := kube.New(restCfg, ns, 1)
	if err != nil {
		return "", nil, err
	}
	return ns, &kube.BestEffort{Client: client}, nil
}
