// Package kube connects to a cluster the way kubectl does (kubeconfig,
// context, default namespace) and maps objects to their REST resources.
package kube

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

// Client is a dynamic client with a cached RESTMapper: discovery is read
// once per run, and reset only when a kind is not found.
type Client struct {
	Config    *rest.Config
	Dynamic   dynamic.Interface
	Discovery discovery.CachedDiscoveryInterface
	Mapper    *restmapper.DeferredDiscoveryRESTMapper
	// Namespace is the kubeconfig context's namespace ("default" when unset),
	// given to namespaced objects that set none, as kubectl does.
	Namespace string
	// Window bounds every request of the client in flight (window.go):
	// the concurrency it was built with, until resized.
	Window *Window

	// binder ends discovery's and OpenAPI's requests, which client-go
	// sends with no context, with the calls waiting on them (bound.go).
	binder  *binder
	openAPI *openAPICache
}

// LoadOptions select a kubeconfig and context as kubectl's flags do.
type LoadOptions struct {
	Kubeconfig string // --kubeconfig; empty: $KUBECONFIG, then ~/.kube/config
	Context    string // --context
	Namespace  string // --namespace overrides the context's
	// Concurrency is the number of parallel requests planned: where the
	// client's window starts.
	Concurrency int
	Timeout     time.Duration
}

// LoadConfig reads the kubeconfig like kubectl and returns the REST config
// and the namespace of the chosen context.
func LoadConfig(o LoadOptions) (*rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if o.Kubeconfig != "" {
		rules.ExplicitPath = o.Kubeconfig
	}
	overrides := &clientcmd.ConfigOverrides{CurrentContext: o.Context}
	if o.Namespace != "" {
		overrides.Context.Namespace = o.Namespace
	}
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, overrides)
	cfg, err := cc.ClientConfig()
	if err != nil {
		if clientcmd.IsEmptyConfig(err) {
			// clientcmd's words point at KUBERNETES_MASTER, which
			// nothing reads any more: say where a kubeconfig is looked for.
			return nil, "", &NoClusterError{errors.New("kubeconfig: none found, and not running in a cluster (set --kubeconfig or $KUBECONFIG, default ~/.kube/config, and --context to choose one of its contexts)")}
		}
		return nil, "", &NoClusterError{fmt.Errorf("kubeconfig: %w (set --kubeconfig or $KUBECONFIG)", err)}
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, "", fmt.Errorf("kubeconfig: namespace: %w", err)
	}
	if ns == "" {
		ns = "default"
	}
	return cfg, ns, nil
}

// New builds a Client from a REST config.
func New(cfg *rest.Config, namespace string, concurrency int) (*Client, error) {
	cfg = rest.CopyConfig(cfg)
	if concurrency < 1 {
		concurrency = 1
	}
	// The window is the one limit on requests: it sets the client-side
	// rate limiter in place of client-go's QPS and Burst.
	window := NewWindow(concurrency, concurrency)
	window.wrap(cfg)
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	// Discovery's requests (OpenAPI's among them) take no context from
	// client-go: their own config binds them to the calls waiting on them.
	binder := newBinder()
	dcfg := rest.CopyConfig(cfg)
	dcfg.Wrap(binder.wrap)
	dc, err := discovery.NewDiscoveryClientForConfig(dcfg)
	if err != nil {
		return nil, fmt.Errorf("discovery client: %w", err)
	}
	cached := memory.NewMemCacheClient(dc)
	if namespace == "" {
		namespace = "default"
	}
	return &Client{
		Config:    cfg,
		Dynamic:   dyn,
		Discovery: cached,
		Mapper:    restmapper.NewDeferredDiscoveryRESTMapper(cached),
		Namespace: namespace,
		Window:    window,
		binder:    binder,
		openAPI:   newOpenAPICache(dc.OpenAPIV3()),
	}, nil
}

// Load is LoadConfig followed by New.
func Load(o LoadOptions) (*Client, error) {
	cfg, ns, err := LoadConfig(o)
	if err != nil {
		return nil, err
	}
	if o.Timeout > 0 {
		cfg.Timeout = o.Timeout
	}
	return New(cfg, ns, o.Concurrency)
}

// Mapping returns the REST mapping of a kind. A kind the cluster does not
// serve gives an error for which meta.IsNoMatchError is true.
func (c *Client) Mapping(gvk schema.GroupVersionKind) (*meta.RESTMapping, error) {
	return c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
}

// IsNamespaced tells whether a kind is namespaced, from discovery.
func (c *Client) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	m, err := c.Mapping(gvk)
	if err != nil {
		return false, err
	}
	return m.Scope.Name() == meta.RESTScopeNameNamespace, nil
}

// Resource returns the dynamic resource interface for a kind in a namespace
// (the namespace is ignored for cluster-scoped kinds).
func (c *Client) Resource(gvk schema.GroupVersionKind, namespace string) (dynamic.ResourceInterface, error) {
	m, err := c.Mapping(gvk)
	if err != nil {
		return nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return c.Dynamic.Resource(m.Resource).Namespace(namespace), nil
	}
	return c.Dynamic.Resource(m.Resource), nil
}

// ResetDiscovery forgets cached discovery and OpenAPI documents, e.g.
// after CRDs were created.
func (c *Client) ResetDiscovery() {
	c.Mapper.Reset()
	c.openAPI.reset()
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
