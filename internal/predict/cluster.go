package predict

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// errNoFieldManager guards the engines: check refuses a run without a
// field manager before it reaches them.
var errNoFieldManager = errors.New("predict: field-manager: " + model.FieldManagerRequired)

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
	// Concurrency is how many workers send requests: as many as the
	// client's window may let in flight (its cap), which is the limit on
	// the requests themselves.
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
	// Apply is how the deploy applies (delivery.ApplyMethod, resolved: no
	// Resolve left); the zero value is a forced Server-Side Apply.
	Apply delivery.ApplyMethod
	// Original gives what the deploy applied before, the client-side
	// three-way merge's original when Apply.Original is
	// delivery.OriginalPreviousManifest: the snapshot's applied config; nil
	// when it has none. It is asked from the workers, concurrently, and
	// its object is not changed. Without it (or its object), what the
	// deploy's own Update entry owns in live stands for it.
	Original func(model.ID) *unstructured.Unstructured
	// UpgradesClientSide predicts as if the deployer merged live's
	// client-side managers into its Apply entry first (upgrade.go).
	UpgradesClientSide bool
	// Types types the kinds for that upgrade's local apply: the API
	// server's schemas. Nil: client-go's built-in ones, deduced for the
	// others.
	Types *typing.Cache
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
	o.Apply = o.Apply.OrDefault()
	return o
}

// Cluster predicts with the API server: per object a read of live and the
// deploy's write with dryRun=All and the deploy's field manager (a forced
// Server-Side Apply unless ClusterOptions.Apply says otherwise), in
// parallel.
type Cluster struct {
	kube   *kube.Client
	opts   ClusterOptions
	dyn    dynamic.Interface
	dynErr error
	retry  *retrier
	// listPageSize is a field so that tests can page small lists.
	listPageSize int64
	// managers apply locally after a client-side upgrade.
	managers *managers
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
		managers:     newManagers(typesOrBuiltin(o.Types)),
	}
}

func typesOrBuiltin(t *typing.Cache) *typing.Cache {
	if t != nil {
		return t
	}
	return typing.New(typing.Options{})
}

// target is one object that gets requests, and what they answered. The
// live fields and the dry-run fields are written by different jobs.
type target struct {
	index int
	obj   model.Object
	// held is obj's object while it waits for its dry-run (sealed.go);
	// obj.Object is nil meanwhile.
	held      sealed
	name      string
	namespace string // the effective one: the default namespace filled in
	mapping   *meta.RESTMapping
	resource  dynamic.ResourceInterface

	live    *unstructured.Unstructured
	liveErr *DryRunError

	predicted *unstructured.Unstructured
	dryErr    *DryRunError
	createErr *DryRunError
	blocked   string
	warnings  []string

	// pending counts the target's jobs not finished yet (its dry-run and
	// its live read); whoever finishes the last one hands the result on.
	// The atomic also orders the two jobs' writes before that hand-over.
	pending atomic.Int32
}

// Predict implements Engine.
func (c *Cluster) Predict(ctx context.Context, objs []model.Object) ([]Result, error) {
	results := make([]Result, len(objs))
	err := c.predict(ctx, objs, func(i int, r Result) { results[i] = r }, false)
	if err != nil {
		return nil, err
	}
	return results, nil
}

// PredictEach implements Streamer: each object's Result goes to emit as
// soon as its requests are answered, and the engine keeps nothing of it.
// An object waiting for its dry-run is held sealed (sealed.go), and objs'
// entries let go of their objects.
func (c *Cluster) PredictEach(ctx context.Context, objs []model.Object, emit func(i int, r Result)) error {
	return c.predict(ctx, objs, emit, true)
}

// predict calls emit once per object: at once for the objects that need no
// request, otherwise when the last of its requests is answered. forget
// drops each target's answers once emitted, so that a caller that analyses
// as results come keeps the memory of the objects in flight only.
func (c *Cluster) predict(ctx context.Context, objs []model.Object, emit func(int, Result), forget bool) error {
	if c.opts.FieldManager == "" {
		return errNoFieldManager
	}
	if c.dynErr != nil {
		return c.dynErr
	}
	for _, o := range objs {
		if o.Object == nil {
			return fmt.Errorf("%s: predict: no object", o.ID)
		}
	}
	if len(objs) == 0 {
		return nil
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, c.opts.Deadline)
	defer cancel()

	// The groups whose discovery failed are not kept: a kind they would
	// map is looked up again, and explained from that second answer.
	if _, err := c.discover(ctx); err != nil {
		return err
	}
	deps := indexDeps(objs)
	kinds, err := c.mapKinds(ctx, objs, deps)
	if err != nil {
		return err
	}

	var emitMu sync.Mutex
	send := func(i int, r Result) {
		if parent.Err() == nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
			c.explainDeadline(&r)
		}
		emitMu.Lock()
		defer emitMu.Unlock()
		emit(i, r)
	}
	targets := c.targets(objs, kinds, send)
	if forget {
		held, n := sealObjects(objs)
		for _, t := range targets {
			if h := held[t.index]; h != nil {
				t.held, t.obj.Object = h, nil
			}
		}
		for i := range objs {
			objs[i].Object = nil
		}
		collectIfReleased(n)
	}
	c.run(ctx, targets, deps, func(t *target) {
		r := t.result()
		if c.opts.UpgradesClientSide && c.opts.Apply.ServerSide() {
			c.upgrade(ctx, t, &r)
		}
		if forget {
			t.live, t.predicted, t.obj.Object = nil, nil, nil
		}
		send(t.index, r)
	})
	if errors.Is(parent.Err(), context.Canceled) {
		return fmt.Errorf("predict: %w", parent.Err())
	}
	return nil
}

// targets emits the results of the objects that need no request (blocked,
// unknown kind, unnamed) and returns the others.
func (c *Cluster) targets(objs []model.Object, kinds map[schema.GroupVersionKind]*kindAnswer, emit func(int, Result)) []*target {
	var targets []*target
	for i, o := range objs {
		k := kinds[o.Object.GroupVersionKind()]
		r := Result{Object: o}
		switch {
		case k.blocked != "":
			r.Blocked = k.blocked
		case k.mapping == nil:
			e := newDryRunError(o.ID, OpDryRun, k.err, 0)
			if k.reason != "" {
				e.Reason = k.reason
			}
			e.Unserved = k.unserved
			// Without a mapping the live object was never read either: its
			// absence says nothing about whether it exists.
			r.Err, r.LiveErr = e, e
		case o.Object.GetName() == "":
			r.Err = &DryRunError{ID: o.ID, Op: OpDryRun, Reason: string(metav1.StatusReasonInvalid),
				Message: "metadata.name is empty: Server-Side Apply needs a name (generateName cannot be applied)"}
		default:
			targets = append(targets, c.newTarget(i, o, k.mapping))
			continue
		}
		emit(i, r)
	}
	return targets
}

func (c *Cluster) newTarget(i int, o model.Object, m *meta.RESTMapping) *target {
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

// run does all requests, as many in flight as the window lets, and calls done
// with each target whose requests are all answered. Live reads and dry-runs
// are independent, so they share one queue: the wall time is the total work
// divided by the concurrency, not a read phase then an apply phase.
//
// A LIST is queued right before the dry-runs of its own objects, not all
// LISTs first: the live objects it returns are held until their dry-runs
// are answered, and LISTs first held the live state of the whole render
// for most of the run (at 5,000 objects, a third of the peak heap).
func (c *Cluster) run(ctx context.Context, targets []*target, deps renderDeps, done func(*target)) {
	reader := &liveReader{cluster: c, listThreshold: c.opts.ListThreshold, pageSize: c.listPageSize}
	lists, gets := reader.plan(targets)
	if c.readsLiveFirst() {
		c.runLiveFirst(ctx, reader, lists, gets, deps, done)
		return
	}
	finish := func(t *target) {
		if t.pending.Add(-1) == 0 {
			// Both answers are in: only now is it known that the refused
			// apply was of an existing object (ratchet.go). The worker
			// that finished last asks, so the queue needs no room for it.
			if t.needsCreateCheck() {
				c.dryRunCreate(ctx, t)
			}
			done(t)
		}
	}
	for _, t := range targets {
		t.pending.Store(2)
	}

	// The queue holds every job there can be (a LIST that gives up adds GETs
	// of its own targets only), so a worker's add never blocks.
	jobs := len(lists) + 2*len(targets)
	// The workers bound memory, not requests (the window does): each
	// holds an object's live state or answer while it waits on the
	// window, so there are no more of them than the window can let in
	// flight.
	pool := parallel.NewPool(min(c.opts.Concurrency, jobs), jobs)
	add := pool.Go
	getAndFinish := func(t *target) {
		reader.get(ctx, t)
		finish(t)
	}
	dryRun := func(t *target) {
		add(func() {
			c.dryRun(ctx, t, deps)
			finish(t)
		})
	}
	for _, g := range lists {
		add(func() {
			unsettled := map[*target]bool{}
			for _, t := range reader.list(ctx, g) {
				unsettled[t] = true
				add(func() { getAndFinish(t) })
			}
			for _, t := range g.targets {
				if !unsettled[t] {
					finish(t)
				}
			}
		})
		for _, t := range g.targets {
			dryRun(t)
		}
	}
	for _, t := range gets {
		dryRun(t)
		add(func() { getAndFinish(t) })
	}
	pool.Wait()
}

// dryRun asks the API server what the deploy's apply would leave.
func (c *Cluster) dryRun(ctx context.Context, t *target, deps renderDeps) {
	if err := t.unseal(); err != nil {
		t.dryErr = &DryRunError{ID: t.obj.ID, Op: OpDryRun, Message: err.Error(), Err: err}
		return
	}
	if c.readsLiveFirst() && t.liveErr != nil {
		// The request is made of live: without it there is none to send,
		// and the failed read is the object's answer.
		return
	}
	request, refused := c.request(t)
	if refused != nil {
		t.dryErr = refused
		return
	}
	var out *unstructured.Unstructured
	warned := &warnings{}
	attempts, err := c.retry.do(collectWarnings(ctx, warned), func(ctx context.Context) error {
		var err error
		out, err = request(ctx)
		return err
	})
	t.warnings = warned.texts()
	switch {
	case err == nil:
		t.predicted = out
	case t.namespace != "" && deps.namespaces[t.namespace] && namespaceMissing(err, t.namespace):
		t.blocked = namespaceBlocked(t.namespace)
	default:
		t.dryErr = newDryRunError(t.obj.ID, OpDryRun, err, attempts)
	}
}

// request is the deploy's write of t as its method makes it, dry-run.
func (c *Cluster) request(t *target) (func(context.Context) (*unstructured.Unstructured, error), *DryRunError) {
	switch c.opts.Apply.Method {
	case delivery.ApplyClientSide:
		return c.clientSideRequest(t)
	case delivery.ApplyReplace:
		return c.replaceRequest(t), nil
	}
	return c.applyRequest(t), nil
}

// upgrade carries a dry-run's answer past the deployer's client-side
// upgrade; an answer it cannot carry is no prediction (fail closed).
func (c *Cluster) upgrade(ctx context.Context, t *target, r *Result) {
	if r.Predicted == nil {
		return
	}
	p, err := upgradedPrediction(c.managers, c.opts.Apply, c.opts.FieldManager, r.Live, r.Predicted)
	if err == nil && p != r.Predicted {
		p, err = c.redefault(ctx, t, r.Predicted, p)
	}
	if err != nil {
		r.Predicted = nil
		r.Err = &DryRunError{ID: r.Object.ID, Op: OpDryRun, Reason: ReasonClientSideUpgrade, Message: err.Error(), Err: err}
		return
	}
	r.Predicted = p
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
	r := Result{Object: t.obj, Live: t.live, LiveErr: t.liveErr, Warnings: t.warnings, CreateErr: t.createErr}
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
	if model.IsSecret(t.obj.Object) || model.IsSecret(t.live) {
		for _, e := range []*DryRunError{r.Err, r.LiveErr, r.CreateErr} {
			if e != nil {
				redactSecretValues(e, t.obj.Object, t.live)
			}
		}
		r.Warnings = hideSecretValues(r.Warnings, t.obj.Object, t.live)
	}
	return r
}

// explainDeadline rewrites the error of a request cut by the overall
// deadline: "context deadline exceeded" says nothing about which limit.
func (c *Cluster) explainDeadline(r *Result) {
	e := r.Err
	if e == nil || e.Code != 0 || !isTimeout(e.Err) {
		return
	}
	e.Reason = ReasonTimeout
	e.Message = fmt.Sprintf("not answered within the overall deadline of %s: %s", c.opts.Deadline, e.Message)
}
