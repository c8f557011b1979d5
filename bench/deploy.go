package main

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/retry"
)

const (
	deployer = "deployer"
	// editor is the other manager: someone editing objects by hand.
	editor = "kubectl-edit"
)

// deploy force-applies the objects as the deployer, as a pipeline does:
// the namespaces and the CRD first, then the rest, concurrency at a time.
func deploy(ctx context.Context, kc *kube.Client, objs []object, concurrency int) error {
	var first, rest []object
	for _, o := range objs {
		if o.namespace() == "" {
			first = append(first, o)
		} else {
			rest = append(rest, o)
		}
	}
	if err := each(concurrency, first, func(o object) error { return apply(ctx, kc, o) }); err != nil {
		return err
	}
	if err := waitKind(ctx, kc, schema.GroupVersionKind{Group: crdGroup, Version: "v1", Kind: "Widget"}); err != nil {
		return err
	}
	return each(concurrency, rest, func(o object) error { return apply(ctx, kc, o) })
}

func apply(ctx context.Context, kc *kube.Client, o object) error {
	data, err := json.Marshal(o.body)
	if err != nil {
		return err
	}
	ri, err := resource(kc, o)
	if err != nil {
		return err
	}
	force := true
	_, err = ri.Patch(ctx, o.name(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: deployer, Force: &force})
	if err != nil {
		return fmt.Errorf("apply %s %s/%s: %w", o.kind(), o.namespace(), o.name(), err)
	}
	return nil
}

// waitKind waits until the API server serves the CRD's kind.
func waitKind(ctx context.Context, kc *kube.Client, gvk schema.GroupVersionKind) error {
	deadline := time.Now().Add(time.Minute)
	for {
		kc.ResetDiscovery()
		_, err := kc.Mapping(gvk)
		if err == nil {
			return nil
		}
		if !meta.IsNoMatchError(err) || time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: %w", gvk, err)
		}
		if err := retry.Sleep(ctx, 200*time.Millisecond); err != nil {
			return err
		}
	}
}

// driftAll makes the edits of another manager to the objects marked drift:
// each changes one field the deployer owns.
func driftAll(ctx context.Context, kc *kube.Client, objs []object, concurrency int) (int, error) {
	var drifted []object
	for _, o := range objs {
		if o.drift {
			drifted = append(drifted, o)
		}
	}
	return len(drifted), each(concurrency, drifted, func(o object) error { return drift(ctx, kc, o) })
}

func drift(ctx context.Context, kc *kube.Client, o object) error {
	ri, err := resource(kc, o)
	if err != nil {
		return err
	}
	opts := metav1.PatchOptions{FieldManager: editor}
	var sub []string
	var patch string
	switch o.kind() {
	case "Deployment":
		// What `kubectl scale` does.
		patch, sub, opts.FieldManager = `{"spec":{"replicas":5}}`, []string{"scale"}, "kubectl"
	case "Service":
		patch = `{"metadata":{"labels":{"tier":"edited"}}}`
	case "ConfigMap":
		patch = `{"data":{"mode":"debug"}}`
	case "Widget":
		patch = `{"spec":{"size":9}}`
	default:
		return fmt.Errorf("no drift for %s", o.kind())
	}
	if _, err := ri.Patch(ctx, o.name(), types.MergePatchType, []byte(patch), opts, sub...); err != nil {
		return fmt.Errorf("drift %s %s/%s: %w", o.kind(), o.namespace(), o.name(), err)
	}
	return nil
}

func resource(kc *kube.Client, o object) (dynamic.ResourceInterface, error) {
	gv, err := schema.ParseGroupVersion(o.body["apiVersion"].(string))
	if err != nil {
		return nil, err
	}
	return kc.Resource(gv.WithKind(o.kind()), o.namespace())
}

// each calls f on every item, concurrency at a time, and returns the first
// error.
func each[T any](concurrency int, items []T, f func(T) error) error {
	errs := make([]error, len(items))
	parallel.For(len(items), concurrency, func(i int) { errs[i] = f(items[i]) })
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
