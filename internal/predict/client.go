package predict

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

// noRetryClient switches off client-go's built-in loop that silently
// retries 429/5xx answers carrying Retry-After up to 10 times. The retrier
// handles those itself, within the overall deadline and the --concurrency
// budget, so that retries do not multiply (10 inside × N outside).
type noRetryClient struct{ rest.Interface }

func (c noRetryClient) Verb(verb string) *rest.Request { return c.Interface.Verb(verb).MaxRetries(0) }
func (c noRetryClient) Post() *rest.Request            { return c.Interface.Post().MaxRetries(0) }
func (c noRetryClient) Put() *rest.Request             { return c.Interface.Put().MaxRetries(0) }
func (c noRetryClient) Get() *rest.Request             { return c.Interface.Get().MaxRetries(0) }
func (c noRetryClient) Delete() *rest.Request          { return c.Interface.Delete().MaxRetries(0) }
func (c noRetryClient) Patch(pt types.PatchType) *rest.Request {
	return c.Interface.Patch(pt).MaxRetries(0)
}

// newDynamic builds a dynamic client like dynamic.NewForConfig does, on top
// of noRetryClient.
func newDynamic(cfg *rest.Config) (dynamic.Interface, error) {
	cfg = dynamic.ConfigFor(cfg)
	// The dynamic client builds absolute paths; these only satisfy the
	// REST client's constructor.
	cfg.GroupVersion = nil
	cfg.APIPath = "/"
	cfg.WarningHandler, cfg.WarningHandlerWithContext = nil, contextWarnings{}
	hc, err := rest.HTTPClientFor(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	rc, err := rest.UnversionedRESTClientForConfigAndClient(cfg, hc)
	if err != nil {
		return nil, fmt.Errorf("dynamic client: %w", err)
	}
	return dynamic.New(noRetryClient{rc}), nil
}
