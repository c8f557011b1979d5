package predict

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/render"
)

// Defaults of ClusterOptions' zero values.
const (
	DefaultConcurrency    = 16
	DefaultDeadline       = 5 * time.Minute
	DefaultMaxRetries     = 5
	DefaultRequestTimeout = 30 * time.Second
	DefaultListThreshold  = 8
)

// ClusterOptions tune the cluster engine. Zero values take the defaults.
type ClusterOptions struct {
	// FieldManager is the manager the deploy applies with (--field-manager).
	FieldManager string
	// Concurrency bounds the requests in flight (--concurrency).
	Concurrency int
	// Deadline bounds the whole Predict; objects not answered by then are
	// Timeout errors.
	Deadline time.Duration
	// MaxRetries is the number of retries of a transient failure; negative
	// means none.
	MaxRetries int
	// RequestTimeout bounds one attempt of one request.
	RequestTimeout time.Duration
	// ListThreshold is the number of rendered objects of one kind in one
	// namespace from which their live state is read with one LIST instead of
	// a GET each; negative means always GET.
	ListThreshold int
}

func (o ClusterOptions) withDefaults() ClusterOptions {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	if o.Deadline <= 0 {
		o.Deadline = DefaultDeadline
	}
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = DefaultMaxRetries
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	switch {
	case o.ListThreshold == 0:
		o.ListThreshold = DefaultListThreshold
	case o.ListThreshold < 0:
		o.ListThreshold = 0
	}
	return o
}

// Cluster predicts with the API server: per object a read of live and a
// Server-Side Apply with dryRun=All, force=true and the deploy's field
// manager, in parallel.
type Cluster struct {
	kube   *kube.Client
	opts   ClusterOptions
	dyn    dynamic.Interface
	dynErr error
	retry  *retrier
	// listPageSize is a field so that tests can page small lists.
	listPageSize int64
}

var _ Engine = (*Cluster)(nil)

// NewCluster returns the cluster engine. c's discovery and mapper are
// reused; requests go through a client of c's config whose retries are the
// engine's own.
func NewCluster(c *kube.Client, o ClusterOptions) *Cluster {
	o = o.withDefaults()
	dyn, err := newDynamic(c.Config)
	return &Cluster{
		kube:   c,
		opts:   o,
		dyn:    dyn,
		dynErr: err,
		retry:  newRetrier(o.MaxRetries, o.RequestTimeout),

		listPageSize: listPageSize,
	}
}

// target is one object that gets requests, and what they answered. The
// live fields and the dry-run fields are written by different jobs.
type target struct {
	index     int
	obj       render.Object
	name      string
	namespace string // the effective one: the default namespace filled in
	mapping   *meta.RESTMapping
	resource  dynamic.ResourceInterface

	live    *unstructured.Unstructured
	liveErr *DryRunError

	predicted *unstructured.Unstructured
	dryErr    *DryRunError
	blocked   string
}

// Predict implements Engine.
func (c *Cluster) Predict(ctx context.Context, objs []render.Object) ([]Result, error) {
	if c.opts.FieldManager == "" {
		return nil, errors.New("predict: no field manager (--field-manager is required)")
	}
	if c.dynErr != nil {
		return nil, c.dynErr
	}
	results := make([]Result, len(objs))
	for i, o := range objs {
		if o.Object == nil {
			return nil, fmt.Errorf("%s: predict: no object", o.ID)
		}
		results[i].Object = o
	}
	if len(objs) == 0 {
		return results, nil
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.opts.Deadline)
	defer cancel()

	failed, err := c.discover(ctx)
	if err != nil {
		return nil, err
	}
	deps := indexDeps(objs)
	kinds, err := c.mapKinds(ctx, objs, deps, failed)
	if err != nil {
		return nil, err
	}

	targets := c.targets(objs, kinds, results)
	c.run(ctx, targets, deps)
	if errors.Is(parent.Err(), context.Canceled) {
		return nil, fmt.Errorf("predict: %w", parent.Err())
	}
	for _, t := range targets {
		results[t.index] = t.result()
	}
	if parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		c.explainDeadline(results)
	}
	return results, nil
}

// targets settles the objects that need no request (blocked, unknown kind,
// unnamed) in results and returns the others.
func (c *Cluster) targets(objs []render.Object, kinds map[schema.GroupVersionKind]*kindAnswer, results []Result) []*target {
	var targets []*target
	for i, o := range objs {
		k := kinds[o.Object.GroupVersionKind()]
		switch {
		case k.blocked != "":
			results[i].Blocked = k.blocked
		case k.mapping == nil:
			e := newDryRunError(o.ID, OpDryRun, k.err, 0)
			if k.reason != "" {
				e.Reason = k.reason
			}
			results[i].Err = e
		case o.Object.GetName() == "":
			results[i].Err = &DryRunError{ID: o.ID, Op: OpDryRun, Reason: string(metav1.StatusReasonInvalid),
				Message: "metadata.name is empty: Server-Side Apply needs a name (generateName cannot be applied)"}
		default:
			targets = append(targets, c.newTarget(i, o, k.mapping))
		}
	}
	return targets
}

func (c *Cluster) newTarget(i int, o render.Object, m *meta.RESTMapping) *target {
	ns := ""
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		ns = o.Object.GetNamespace()
		if ns == "" {
			ns = c.kube.Namespace
		}
	}
	return &target{
		index:     i,
		obj:       o,
		name:      o.Object.GetName(),
		namespace: ns,
		mapping:   m,
		resource:  c.resource(m.Resource, ns),
	}
}

func (c *Cluster) resource(r schema.GroupVersionResource, namespace string) dynamic.ResourceInterface {
	if namespace == "" {
		return c.dyn.Resource(r)
	}
	return c.dyn.Resource(r).Namespace(namespace)
}

// run does all requests with at most Concurrency in flight. Live reads and
// dry-runs are independent, so they share one queue: the wall time is the
// total work divided by the concurrency, not a read phase then an apply
// phase. LISTs go first because they are the longest.
func (c *Cluster) run(ctx context.Context, targets []*target, deps renderDeps) {
	reader := &liveReader{cluster: c, listThreshold: c.opts.ListThreshold, pageSize: c.listPageSize}
	lists, gets := reader.plan(targets)

	// The queue holds every job there can be (a LIST that gives up adds GETs
	// of its own targets only), so a worker's add never blocks.
	jobs := make(chan func(), len(lists)+2*len(targets))
	var pending sync.WaitGroup
	add := func(f func()) {
		pending.Add(1)
		jobs <- func() { defer pending.Done(); f() }
	}
	for _, g := range lists {
		add(func() {
			for _, t := range reader.list(ctx, g) {
				add(func() { reader.get(ctx, t) })
			}
		})
	}
	getting := make(map[*target]bool, len(gets))
	for _, t := range gets {
		getting[t] = true
	}
	for _, t := range targets {
		add(func() { c.dryRun(ctx, t, deps) })
		if getting[t] {
			add(func() { reader.get(ctx, t) })
		}
	}

	var workers sync.WaitGroup
	for range min(c.opts.Concurrency, cap(jobs)) {
		workers.Add(1)
		go func() {
			defer workers.Done()
			for job := range jobs {
				job()
			}
		}()
	}
	pending.Wait()
	close(jobs)
	workers.Wait()
}

// dryRun asks the API server what the deploy's apply would leave.
func (c *Cluster) dryRun(ctx context.Context, t *target, deps renderDeps) {
	body := applyBody(t.obj.Object, t.namespace != "", t.namespace)
	opts := metav1.ApplyOptions{FieldManager: c.opts.FieldManager, Force: true, DryRun: []string{metav1.DryRunAll}}
	var out *unstructured.Unstructured
	attempts, err := c.retry.do(ctx, func(ctx context.Context) error {
		var err error
		out, err = t.resource.Apply(ctx, t.name, body, opts)
		return err
	})
	switch {
	case err == nil:
		t.predicted = out
	case t.namespace != "" && deps.namespaces[t.namespace] && namespaceMissing(err, t.namespace):
		t.blocked = namespaceBlocked(t.namespace)
	default:
		t.dryErr = newDryRunError(t.obj.ID, OpDryRun, err, attempts)
	}
}

// namespaceMissing recognises the answer to an object whose namespace does
// not exist: 404 with the namespace as the missing thing.
func namespaceMissing(err error, ns string) bool {
	var st apierrors.APIStatus
	if !errors.As(err, &st) || !apierrors.IsNotFound(err) {
		return false
	}
	d := st.Status().Details
	return d != nil && d.Kind == "namespaces" && d.Name == ns
}

// result merges what the two jobs learnt. A refused dry-run outranks a
// failed read; a failed read leaves no prediction, because without live the
// prediction could not be told from a new object.
func (t *target) result() Result {
	r := Result{Object: t.obj, Live: t.live, LiveErr: t.liveErr}
	switch {
	case t.blocked != "":
		r.Blocked = t.blocked
	case t.dryErr != nil:
		r.Err = t.dryErr
	case t.liveErr != nil:
		r.Err = t.liveErr
	default:
		r.Predicted = t.predicted
	}
	if isSecret(t.obj.Object) || isSecret(t.live) {
		for _, e := range []*DryRunError{r.Err, r.LiveErr} {
			if e != nil {
				redactSecretValues(e, t.obj.Object, t.live)
			}
		}
	}
	return r
}

// explainDeadline rewrites the errors of requests cut by the overall
// deadline: "context deadline exceeded" says nothing about which limit.
func (c *Cluster) explainDeadline(results []Result) {
	for i := range results {
		e := results[i].Err
		if e == nil || e.Code != 0 || !isTimeout(e.Err) {
			continue
		}
		e.Reason = ReasonTimeout
		e.Message = fmt.Sprintf("not answered within the overall deadline of %s: %s", c.opts.Deadline, e.Message)
	}
}
