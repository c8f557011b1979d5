package snapshot

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/secrets"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ErrMissing is wrapped by Capture's error for each rendered object the
// cluster does not have: the deploy did not do what was rendered.
var ErrMissing = errors.New("not in the cluster; the deploy did not apply it")

// Capture GETs the live object of every rendered object, with as many
// workers as c's window may hold requests (the window, not a limit of
// the snapshot's own, bounds what is in flight), and builds the
// snapshot's entries. Every object that
// cannot be read is an error of its own, starting with its id; they are
// joined in id order.
func Capture(ctx context.Context, c *kube.Client, objs []model.Object, h secrets.Hasher) (map[model.ID]*Entry, error) {
	var (
		mu      sync.Mutex
		entries = make(map[model.ID]*Entry, len(objs))
		failed  = map[model.ID]error{}
	)
	parallel.For(len(objs), c.Window.Ceiling(), func(i int) {
		o := objs[i]
		live, err := get(ctx, c, o)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			failed[o.ID] = fmt.Errorf("%s: %w", o.ID, err)
			return
		}
		entries[o.ID] = NewEntry(o, live, h)
	})
	if len(failed) == 0 {
		return entries, nil
	}
	ids := make([]model.ID, 0, len(failed))
	for id := range failed {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].Less(ids[j]) })
	errs := make([]error, len(ids))
	for i, id := range ids {
		errs[i] = failed[id]
	}
	return nil, errors.Join(errs...)
}

func get(ctx context.Context, c *kube.Client, o model.Object) (*unstructured.Unstructured, error) {
	gvk := o.Object.GroupVersionKind()
	ns := o.Object.GetNamespace()
	if ns == "" {
		ns = c.Namespace // ignored for cluster-scoped kinds
	}
	ri, err := c.Resource(gvk, ns)
	if err != nil {
		if meta.IsNoMatchError(err) {
			return nil, fmt.Errorf("%s is not served by the cluster: %w", gvk.GroupVersion().WithKind(gvk.Kind), ErrMissing)
		}
		return nil, fmt.Errorf("get: %w", err)
	}
	live, err := ri.Get(ctx, o.Object.GetName(), metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, ErrMissing
	}
	if err != nil {
		return nil, fmt.Errorf("get: %w", err)
	}
	return live, nil
}
