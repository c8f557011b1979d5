package controllers

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"
)

// discoverTimeout bounds the LISTs: they only add warnings, and must not
// hold a check up.
const discoverTimeout = time.Minute

const pageSize = 500

// Namespaces are the namespaces of the rendered objects, where their
// autoscalers would be.
func Namespaces(objs []model.Object) []string {
	set := map[string]bool{}
	for _, o := range objs {
		if o.ID.Namespace != "" {
			set[o.ID.Namespace] = true
		}
	}
	out := make([]string, 0, len(set))
	for ns := range set {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

// Discover lists the objects of every rule's Source kind in the given
// namespaces. A kind the cluster does not serve is skipped (its controller
// is not installed); a LIST that fails or is refused becomes a note for the
// report, never an error: fights are warnings, and the check must not fail
// for what only adds them.
func Discover(ctx context.Context, c *kube.Client, namespaces []string, concurrency int) ([]*unstructured.Unstructured, []string) {
	ctx, cancel := context.WithTimeout(ctx, discoverTimeout)
	defer cancel()
	type job struct {
		rule *Rule
		res  schema.GroupVersionResource
		ns   string
	}
	var jobs []job
	var notes []string
	for i := range Rules {
		r := &Rules[i]
		if r.Targets == nil {
			continue
		}
		m, err := c.Mapper.RESTMapping(r.Source)
		if meta.IsNoMatchError(err) {
			continue
		}
		if err != nil {
			notes = append(notes, fmt.Sprintf("fights with %ss not checked: %v", r.Name, err))
			continue
		}
		for _, ns := range namespaces {
			jobs = append(jobs, job{r, m.Resource, ns})
		}
	}
	var mu sync.Mutex
	var found []*unstructured.Unstructured
	refused := map[*Rule][]string{}
	failed := map[*Rule]error{}
	parallel.For(len(jobs), max(concurrency, 1), func(i int) {
		j := jobs[i]
		items, err := list(ctx, c, j.res, j.ns)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case apierrors.IsForbidden(err):
			refused[j.rule] = append(refused[j.rule], j.ns)
		case err != nil:
			failed[j.rule] = err
		default:
			found = append(found, items...)
		}
	})
	for i := range Rules {
		r := &Rules[i]
		if nss := refused[r]; len(nss) > 0 {
			sort.Strings(nss)
			notes = append(notes, fmt.Sprintf("fights with %ss not checked in %s %s: listing %s was refused (Forbidden); give the checker list on %s.%s (docs/rbac.md)",
				r.Name, model.Plural(len(nss), "namespace", "namespaces"), strings.Join(nss, ", "), r.Resource, r.Resource, r.Source.Group))
		}
		if err := failed[r]; err != nil {
			notes = append(notes, fmt.Sprintf("fights with %ss not checked everywhere: %v", r.Name, err))
		}
	}
	sort.Slice(found, func(i, j int) bool { return model.IDOf(found[i]).Less(model.IDOf(found[j])) })
	return found, notes
}

func list(ctx context.Context, c *kube.Client, res schema.GroupVersionResource, ns string) ([]*unstructured.Unstructured, error) {
	var out []*unstructured.Unstructured
	opts := metav1.ListOptions{Limit: pageSize}
	for {
		page, err := c.Dynamic.Resource(res).Namespace(ns).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		for i := range page.Items {
			out = append(out, &page.Items[i])
		}
		if opts.Continue = page.GetContinue(); opts.Continue == "" {
			return out, nil
		}
	}
}
