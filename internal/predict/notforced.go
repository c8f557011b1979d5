package predict

// # Server-Side Apply without force
//
// Helm 4 installs, and upgrades a release last applied server-side,
// without --force-conflicts: a field the manifest sends that another
// manager owns with another value fails the deploy with a 409 naming
// each field and its manager. That failure is the prediction (the
// object's Err, live beside it): nothing of the object is written.
//
// With the client-side upgrade first (Helm 4's --server-side=true on a
// release Helm 3 made), the upgraded managers' fields are the deploy's by
// the time it applies, so they cannot conflict: their conflicts are
// dropped from the answer, and when none is left, the answer is today's
// forced dry-run carried past the upgrade (upgrade.go), which is what the
// unforced apply after the upgrade leaves.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Conflict is one field of a refused unforced apply, and who owns it.
type Conflict struct {
	// Path is the field in structured-merge-diff's string form
	// (".data.mode").
	Path string
	// Manager is the field manager that owns it ("kubectl-edit").
	Manager string
	// Operation is "Apply" or "Update", Subresource its subresource:
	// the manager as the conflict names it.
	Operation   string
	Subresource string
}

// conflictsOf reads the conflicts of a 409 from its causes, as the field
// manager words them (`conflict with "kubectl-edit" using v1`,
// `conflict with "kubectl" with subresource "scale" using apps/v1 at
// <time>`, `conflict with "other"` for an Apply); nil for any other
// answer.
func conflictsOf(causes []metav1.StatusCause) []Conflict {
	var out []Conflict
	for _, c := range causes {
		if c.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		rest, ok := strings.CutPrefix(c.Message, "conflict with ")
		if !ok {
			continue
		}
		name, rest, ok := unquote(rest)
		if !ok {
			continue
		}
		k := Conflict{Path: c.Field, Manager: name, Operation: string(metav1.ManagedFieldsOperationApply)}
		if sub, ok := strings.CutPrefix(rest, " with subresource "); ok {
			k.Subresource, rest, _ = unquote(sub)
		}
		if strings.HasPrefix(rest, " using ") {
			k.Operation = string(metav1.ManagedFieldsOperationUpdate)
		}
		out = append(out, k)
	}
	return out
}

// unquote splits a Go-quoted string off the front of s.
func unquote(s string) (string, string, bool) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", s, false
	}
	v, err := strconv.Unquote(q)
	return v, s[len(q):], err == nil
}

// applyRequest is the deploy's Server-Side Apply of t, dry-run; force as
// the method says. With the client-side upgrade first and without force,
// the conflicts the upgrade removes are not the deploy's (see above).
func (c *Cluster) applyRequest(t *target) func(context.Context) (*unstructured.Unstructured, error) {
	body := applyBody(t.obj.Object, t.namespace != "", t.namespace)
	apply := func(ctx context.Context, force bool) (*unstructured.Unstructured, error) {
		opts := metav1.ApplyOptions{FieldManager: c.opts.FieldManager, Force: force, DryRun: []string{metav1.DryRunAll}}
		return t.resource.Apply(ctx, t.name, body, opts)
	}
	force := c.opts.Apply.Force
	// A new object has no client-side managers to upgrade.
	if force || !c.opts.UpgradesClientSide || t.live == nil {
		return func(ctx context.Context) (*unstructured.Unstructured, error) { return apply(ctx, force) }
	}
	upgraded := upgradedManagers(c.opts.Apply, t.live, c.opts.FieldManager)
	return func(ctx context.Context) (*unstructured.Unstructured, error) {
		out, err := apply(ctx, false)
		if err == nil || len(upgraded) == 0 {
			return out, err
		}
		left, ok := conflictsLeft(err, upgraded)
		if !ok {
			return nil, err
		}
		if len(left) == 0 {
			return apply(ctx, true)
		}
		return nil, apierrors.NewApplyConflict(left, conflictMessage(left))
	}
}

// conflictsLeft are the causes of a 409 conflict whose manager is not
// upgraded; ok is false for any other error.
func conflictsLeft(err error, upgraded []string) ([]metav1.StatusCause, bool) {
	var st apierrors.APIStatus
	if !errors.As(err, &st) || !apierrors.IsConflict(err) || st.Status().Details == nil {
		return nil, false
	}
	var left []metav1.StatusCause
	for _, cause := range st.Status().Details.Causes {
		cs := conflictsOf([]metav1.StatusCause{cause})
		if len(cs) == 1 && cs[0].Operation == string(metav1.ManagedFieldsOperationUpdate) &&
			cs[0].Subresource == "" && slices.Contains(upgraded, cs[0].Manager) {
			continue
		}
		left = append(left, cause)
	}
	return left, true
}

// conflictMessage words the conflicts left as the field manager words one.
func conflictMessage(causes []metav1.StatusCause) string {
	parts := make([]string, len(causes))
	for i, c := range causes {
		parts[i] = c.Message + ": " + c.Field
	}
	noun := "conflicts"
	if len(causes) == 1 {
		noun = "conflict"
	}
	return fmt.Sprintf("Apply failed with %d %s: %s", len(causes), noun, strings.Join(parts, "; "))
}
