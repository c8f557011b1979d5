package deployers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// prediction is what the check says the deploy does (its report) and what
// the engine predicts each object to be after it: values and
// managedFields, or the error the apply meets.
type prediction struct {
	report *report.Report
	// method is the method resolved against the cluster, as check
	// resolves it before the prediction.
	method  delivery.ApplyMethod
	objects map[string]predict.Result
}

// predict checks the deploy of path under fieldManager, applied as apply
// says, and asks the engine for the same prediction. original gives the
// previous release manifest (OriginalPreviousManifest): the render the
// deployer applied before; "" for none.
func (e *env) predict(path, fieldManager string, apply delivery.ApplyMethod, original string) prediction {
	e.t.Helper()
	ctx := context.Background()
	rep, err := command.Check(ctx, check.Options{
		Target: check.Target{FieldManager: fieldManager, Environment: e.ns, Cluster: check.Cluster{Kubeconfig: e.kubeconfig, Namespace: e.ns},
			Snapshot: runstate.Branch{Repo: e.repo}, Apply: apply},
		Paths:  []string{path},
		FailOn: model.DefaultFailOn(),
	}, check.RunOptions{})
	if err != nil {
		e.t.Fatalf("check: %v", err)
	}
	objs := e.render(path)
	method := e.resolve(apply, fieldManager, objs)
	// As check predicts by default (deployer.upgradesClientSide: true).
	opts := predict.ClusterOptions{FieldManager: fieldManager, Apply: method, UpgradesClientSide: true}
	if original != "" {
		before := map[model.ID]*unstructured.Unstructured{}
		for _, o := range e.render(original) {
			before[o.ID] = o.Object
		}
		opts.Original = func(id model.ID) *unstructured.Unstructured { return before[id] }
	}
	results, err := predict.NewCluster(e.client, opts).Predict(ctx, objs)
	if err != nil {
		e.t.Fatalf("predict: %v", err)
	}
	p := prediction{report: rep, method: method, objects: map[string]predict.Result{}}
	for _, r := range results {
		p.objects[r.Object.ID.Kind+"/"+r.Object.ID.Name] = r
	}
	return p
}

// resolve decides apply from the live objects of objs, as check does
// before its prediction and as the deployer does at deploy time.
func (e *env) resolve(apply delivery.ApplyMethod, fieldManager string, objs []model.Object) delivery.ApplyMethod {
	e.t.Helper()
	var entries [][]metav1.ManagedFieldsEntry
	for _, o := range objs {
		if live := e.get(o.ID.Kind, o.ID.Name); live != nil {
			entries = append(entries, live.GetManagedFields())
		}
	}
	return delivery.ResolveApply(apply, entries, fieldManager)
}

func (e *env) render(path string) []model.Object {
	e.t.Helper()
	objs, err := render.Render(context.Background(), []string{path},
		render.Options{Namespace: e.ns, Scope: e.client, Config: config.Default()})
	if err != nil {
		e.t.Fatal(err)
	}
	return objs
}

// finding is one finding of the report as the scenarios compare them: the
// object, the path, the category and the managers named.
type finding struct {
	object, path string
	category     model.Category
	managers     string
}

func (f finding) String() string {
	return fmt.Sprintf("%s %s %s (%s)", f.object, f.path, f.category, f.managers)
}

// findingsOf lists the report's findings of the given categories, sorted.
func findingsOf(rep *report.Report, categories ...model.Category) []finding {
	var out []finding
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if len(categories) > 0 && !slices.Contains(categories, f.Category) {
				continue
			}
			// A refused unforced apply is one finding on the object whose
			// owners name each conflicting field: one entry a field.
			if f.Category == model.DryRunError && len(f.Owners) > 0 {
				for _, fo := range f.Owners {
					for _, p := range fo.Paths {
						out = append(out, finding{o.Kind + "/" + o.Name, p, f.Category, fo.Manager.Manager})
					}
				}
				continue
			}
			var ms []string
			for _, m := range f.Managers {
				ms = append(ms, m.Manager)
			}
			sort.Strings(ms)
			out = append(out, finding{o.Kind + "/" + o.Name, f.Path, f.Category, strings.Join(ms, ",")})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// owner is one managedFields entry as the scenarios compare them: its time
// left out, which a dry-run cannot know.
type owner struct {
	Manager, Operation, Subresource, APIVersion string
	Fields                                      any
}

func owners(u *unstructured.Unstructured) []owner {
	var out []owner
	for _, m := range u.GetManagedFields() {
		var fields any
		if m.FieldsV1 != nil {
			_ = json.Unmarshal(m.FieldsV1.Raw, &fields)
		}
		out = append(out, owner{m.Manager, string(m.Operation), m.Subresource, m.APIVersion, fields})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		return a.Manager+a.Operation+a.Subresource < b.Manager+b.Operation+b.Subresource
	})
	return out
}

// ownerOf names the managers whose entries hold the field at path (a
// fieldsV1 path of f: keys, "f:spec", "f:replicas").
func ownerOf(u *unstructured.Unstructured, path ...string) []string {
	var out []string
	for _, o := range owners(u) {
		node, ok := o.Fields.(map[string]any)
		for _, p := range path {
			if !ok {
				break
			}
			node, ok = node[p].(map[string]any)
		}
		if ok {
			out = append(out, o.Manager+"/"+o.Operation)
		}
	}
	sort.Strings(out)
	return out
}

// compared is what of an object the real apply and the prediction must
// agree on: its content but status and the server's bookkeeping, and its
// owners.
func compared(u *unstructured.Unstructured) map[string]any {
	c := u.DeepCopy().Object
	delete(c, "status")
	meta, _ := c["metadata"].(map[string]any)
	for _, k := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields"} {
		delete(meta, k)
	}
	c["managedFields"] = owners(u)
	return c
}

// expectAsApplied holds the live objects after the real apply to the
// engine's prediction of them.
func expectAsApplied(t *testing.T, p prediction, deployer string, lives ...*unstructured.Unstructured) {
	t.Helper()
	for _, live := range lives {
		if d := diffPredicted(p, live); d != "" {
			t.Errorf("the prediction is not what %s did: %s", deployer, d)
		}
	}
}

// diffPredicted says where the live object after the real apply differs
// from the engine's prediction of it; "" when they agree.
func diffPredicted(p prediction, live *unstructured.Unstructured) string {
	key := live.GetKind() + "/" + live.GetName()
	r, ok := p.objects[key]
	switch {
	case !ok:
		return key + ": not predicted"
	case r.Err != nil:
		return fmt.Sprintf("%s: predicted to fail (%v), applied", key, r.Err)
	case r.Predicted == nil:
		return key + ": no prediction"
	}
	want, got := compared(r.Predicted), compared(live)
	if reflect.DeepEqual(want, got) {
		return ""
	}
	wb, _ := json.MarshalIndent(want, "", "  ")
	gb, _ := json.MarshalIndent(got, "", "  ")
	return fmt.Sprintf("%s: predicted\n%s\nafter the real apply\n%s", key, wb, gb)
}
