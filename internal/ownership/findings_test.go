package ownership

import (
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const initItem = `.spec.template.spec.initContainers[name="base-os-bash"]`

// The object of seed 004, as the API server left it: Go-http-client created
// the initContainer, eno took over only its image. eno's config now drops
// the initContainer; the server's dry-run answers 422 (Predicted nil).
func TestSplitOwnershipInitContainer(t *testing.T) {
	for _, tc := range []struct {
		name     string
		applied  *unstructured.Unstructured
		deployed *unstructured.Unstructured
		baseline string
	}{
		{"snapshot", manifest(t, "web-initc-eno"), captured(t, "initc-split.live"), BaselineSnapshot},
		{"no snapshot", nil, nil, BaselineLive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, Input{
				FieldManager: "eno",
				Desired:      manifest(t, "web-initc-eno-without-init"),
				Applied:      tc.applied,
				Deployed:     tc.deployed,
				Live:         captured(t, "initc-split.live"),
			})
			if r.Baseline != tc.baseline {
				t.Errorf("baseline %q, want %q", r.Baseline, tc.baseline)
			}
			splits := byPath(r, model.SplitOwnership, initItem)
			if len(splits) != 1 {
				t.Fatalf("want one split-ownership finding on %s:\n%s", initItem, dump(t, r))
			}
			f := splits[0]
			wantMsg := `the config removes it, but its fields are split: eno (Apply) owns .image and .name; ` +
				`Go-http-client (Update) owns .command, .imagePullPolicy, .name, .resources.limits.cpu, .securityContext.runAsNonRoot, .terminationMessagePath and 1 more. ` +
				`The deploy removes only the fields no other manager owns and leaves a partial item, which may fail validation (a required field missing); ` +
				`take whole ownership first: ownership-check migrate --field-manager eno --scope '` + initItem + `'`
			if f.Message != wantMsg {
				t.Errorf("message:\n got %s\nwant %s", f.Message, wantMsg)
			}
			if len(f.Owners) != 2 || f.Owners[0].Manager.Manager != "eno" || f.Owners[1].Manager.Manager != "Go-http-client" {
				t.Fatalf("owners: %+v", f.Owners)
			}
			if got := strings.Join(f.Owners[1].Paths, " "); got != ".command .imagePullPolicy .name .resources.limits.cpu .securityContext.runAsNonRoot .terminationMessagePath .terminationMessagePolicy" {
				t.Errorf("Go-http-client paths: %s", got)
			}
			if len(f.Managers) != 1 || f.Managers[0].Manager != "Go-http-client" || f.Managers[0].Operation != OperationUpdate {
				t.Errorf("managers: %+v", f.Managers)
			}
			// The image goes (eno alone owns it), the name stays.
			if len(byPath(r, model.Reset, initItem+".image")) != 1 || len(byPath(r, model.Retained, initItem+".name")) != 1 {
				t.Errorf("want reset image and retained name:\n%s", dump(t, r))
			}
			if model.LevelOf(f.Category) != model.LevelWarning {
				t.Errorf("level %s", model.LevelOf(f.Category))
			}
		})
	}
}

// Dropping labels entirely while another manager owns some of them is not a
// split: labels are independent keys, and the rest simply stay.
func TestSplitNotForFreeFormMaps(t *testing.T) {
	desired := without(manifest(t, "web-finalizers"), "metadata", "labels")
	r := analyze(t, Input{
		Desired: desired, Applied: manifest(t, "web-finalizers"),
		Deployed: captured(t, "deploy-finalizers.live"), Live: captured(t, "deploy-finalizers.live"),
		Predicted: edit(t, captured(t, "deploy-finalizers.live")).
			disown("deployer", OperationApply, path(t, ".metadata.labels.app"), path(t, ".metadata.labels.team")).obj(),
	})
	for _, f := range r.Findings {
		if f.Category == model.SplitOwnership {
			t.Fatalf("unexpected split: %+v", f)
		}
	}
	if len(byPath(r, model.Reset, ".metadata.labels.app")) != 1 || len(byPath(r, model.Retained, ".metadata.labels.team")) != 1 {
		t.Errorf("want reset app and retained team:\n%s", dump(t, r))
	}
}

// Removing an item the deploy owns alone is a clean removal.
func TestNoSplitWhenTheDeployOwnsTheWholeItem(t *testing.T) {
	r := analyze(t, Input{
		Desired: manifest(t, "service"), Applied: manifest(t, "service-https"),
		Deployed: captured(t, "service-ports.predicted-port-added"), Live: captured(t, "service-ports.predicted-port-added"),
		Predicted: captured(t, "service-ports.live"),
	})
	var got []string
	for _, f := range r.Findings {
		got = append(got, string(f.Category)+" "+f.Path)
	}
	want := []string{
		`reset .spec.ports[port=443,protocol="TCP"].name`,
		`reset .spec.ports[port=443,protocol="TCP"].port`,
		`reset .spec.ports[port=443,protocol="TCP"].targetPort`,
		`release .spec.ports[port=443,protocol="TCP"].name`,
		`release .spec.ports[port=443,protocol="TCP"].port`,
		`release .spec.ports[port=443,protocol="TCP"].targetPort`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("findings:\n%s", strings.Join(got, "\n"))
	}
}

// The manifest gives {port: 80} without protocol; the server keys the item
// [port=80,protocol="TCP"]. An unchanged deploy must be silent.
func TestPartialKeyIsTheServersItem(t *testing.T) {
	r := analyze(t, Input{
		Desired: manifest(t, "service"), Applied: manifest(t, "service"),
		Deployed: captured(t, "service-ports.live"), Live: captured(t, "service-ports.live"),
		Predicted: captured(t, "service-ports.live"),
	})
	if len(r.Findings) != 0 {
		t.Fatalf("unchanged Service reported:\n%s", dump(t, r))
	}
	tr, err := Explain(Input{FieldManager: "deployer", Desired: manifest(t, "service"), Applied: manifest(t, "service"),
		Deployed: captured(t, "service-ports.live"), Live: captured(t, "service-ports.live")},
		path(t, `.spec.ports[port=80,protocol="TCP"].targetPort`))
	if err != nil || tr.Row != 12 {
		t.Fatalf("targetPort: row %d, %v; want hold (12)", tr.Row, err)
	}
}

func TestRetainedLabel(t *testing.T) {
	r := analyze(t, Input{
		Desired: manifest(t, "web-finalizers-no-team"), Applied: manifest(t, "web-finalizers"),
		Deployed: edit(t, captured(t, "deploy-finalizers.live")).drop("labeler").obj(),
		Live:     captured(t, "deploy-finalizers.live"), Predicted: captured(t, "deploy-finalizers.predicted-label-dropped"),
	})
	got := byPath(r, model.Retained, ".metadata.labels.team")
	if len(got) != 1 {
		t.Fatalf("want retained team:\n%s", dump(t, r))
	}
	if want := `still owned by labeler (Apply), so the deploy leaves it in place ("core")`; got[0].Message != want {
		t.Errorf("message %q, want %q", got[0].Message, want)
	}
	if rel := byPath(r, model.Release, ".metadata.labels.team"); len(rel) != 1 || rel[0].Row != 10 {
		t.Errorf("want release row 10:\n%s", dump(t, r))
	}
	if len(r.Findings) != 2 {
		t.Errorf("want only release and retained:\n%s", dump(t, r))
	}
}

func TestResetReplicas(t *testing.T) {
	tc := rowCases[10]
	in := tc.in(t)
	in.FieldManager = "deployer"
	r := analyze(t, in)
	got := byPath(r, model.Reset, replicasPath)
	if len(got) != 1 {
		t.Fatalf("want reset:\n%s", dump(t, r))
	}
	if want := "owned by no one else: the deploy removes it (now 3) and the API server may reset it to its default"; got[0].Message != want {
		t.Errorf("message %q", got[0].Message)
	}
	if got[0].Transition != nil || got[0].LiveValue != int64(3) {
		t.Errorf("reset carries no row, carries the live value: %+v", got[0])
	}
}

// Finalizers are a set (v: entries): dropping one releases that item alone.
func TestSetItemReleased(t *testing.T) {
	desired := manifest(t, "web-finalizers")
	desired.SetFinalizers([]string{"example.com/protect"})
	p := `.metadata.finalizers[="example.com/audit"]`
	r := analyze(t, Input{
		Desired: desired, Applied: manifest(t, "web-finalizers"),
		Deployed: captured(t, "deploy-finalizers.live"), Live: captured(t, "deploy-finalizers.live"),
		Predicted: edit(t, captured(t, "deploy-finalizers.live")).disown("deployer", OperationApply, path(t, p)).obj(),
	})
	if len(byPath(r, model.Release, p)) != 1 || len(byPath(r, model.Reset, p)) != 1 {
		t.Fatalf("want release and reset of %s:\n%s", p, dump(t, r))
	}
	if f := byPath(r, model.Reset, p)[0]; f.LiveValue != "example.com/audit" {
		t.Errorf("live value %v", f.LiveValue)
	}
}

func TestDriftByEdits(t *testing.T) {
	for _, tc := range []struct {
		name, manifest, deployed, live, predicted, path, message string
	}{
		{"kubectl edit image", "web-edited", "deploy-edited.predicted", "deploy-edited.live", "deploy-edited.predicted", imagePath,
			`changed from "nginx:1.25" to "nginx:1.26" by kubectl-edit (Update); the deploy reverts it to "nginx:1.25"`},
		{"ConfigMap PUT by another client", "configmap", "configmap-edited.predicted", "configmap-edited.live", "configmap-edited.predicted", ".data.b",
			`changed from "2" to "3" by editor (Update); the deploy reverts it to "2"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := analyze(t, Input{Desired: manifest(t, tc.manifest), Applied: manifest(t, tc.manifest),
				Deployed: captured(t, tc.deployed), Live: captured(t, tc.live), Predicted: captured(t, tc.predicted)})
			if len(r.Findings) != 1 {
				t.Fatalf("want one finding:\n%s", dump(t, r))
			}
			f := r.Findings[0]
			if f.Category != model.Drift || f.Path != tc.path || f.Message != tc.message {
				t.Errorf("got %s %s %q", f.Category, f.Path, f.Message)
			}
			if len(f.Managers) != 1 || f.Managers[0].Time == "" {
				t.Errorf("managers %+v", f.Managers)
			}
		})
	}
}

func TestBaselineLive(t *testing.T) {
	t.Run("autoscaler owns replicas", func(t *testing.T) {
		r := analyze(t, Input{Desired: manifest(t, "web-hpa"), Live: captured(t, "deploy-hpa.live"), Predicted: captured(t, "deploy-hpa.predicted")})
		if r.Baseline != BaselineLive {
			t.Errorf("baseline %q", r.Baseline)
		}
		got := byPath(r, model.TakingConflict, replicasPath)
		if len(got) != 1 || len(r.Findings) != 1 {
			t.Fatalf("want one taking-conflict:\n%s", dump(t, r))
		}
		if want := "set to 7 by hpa (Apply); the deploy takes it over and sets it to 3"; got[0].Message != want {
			t.Errorf("message %q", got[0].Message)
		}
		if got[0].DeployedValue != nil {
			t.Errorf("no deployed value without a snapshot: %v", got[0].DeployedValue)
		}
	})
	t.Run("unchanged object", func(t *testing.T) {
		r := analyze(t, Input{Desired: manifest(t, "web-scaled"), Live: captured(t, "deploy-scaled.applied.live"), Predicted: captured(t, "deploy-scaled.applied.live")})
		if r.Findings == nil {
			t.Error("clean: an empty list, not nil")
		}
		if len(r.Findings) != 0 {
			t.Fatalf("unchanged object reported:\n%s", dump(t, r))
		}
	})
	t.Run("shared with the same value", func(t *testing.T) {
		r := analyze(t, Input{Desired: manifest(t, "web-shared"), Live: captured(t, "deploy-shared.live"), Predicted: captured(t, "deploy-shared.live")})
		if len(r.Findings) != 0 {
			t.Fatalf("shared ownership reported:\n%s", dump(t, r))
		}
	})
}

func TestNewAndRemoved(t *testing.T) {
	r := analyze(t, Input{Desired: manifest(t, "web-new"), Predicted: captured(t, "deploy-new.predicted")})
	if len(r.Findings) != 1 || r.Findings[0].Category != model.New || r.Findings[0].Message != "not in the cluster: the deploy creates it" {
		t.Fatalf("new:\n%s", dump(t, r))
	}
	r = analyze(t, Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"),
		Deployed: captured(t, "deploy-scaled.applied.live"), Predicted: captured(t, "deploy-new.predicted")})
	// Deleted out of band: one drift on the whole object, row 13.
	if len(r.Findings) != 1 || r.Findings[0].Category != model.Drift || r.Findings[0].Path != model.WholeObject ||
		r.Findings[0].Transition == nil || r.Findings[0].Row != 13 ||
		!strings.Contains(r.Findings[0].Message, "deleted since the last deploy") ||
		!strings.Contains(r.Findings[0].Message, "the deploy creates it again") {
		t.Fatalf("deleted out of band:\n%s", dump(t, r))
	}
	if f := r.Findings[0]; f.DeployedValue != nil || f.LiveValue != nil || f.DesiredValue != nil || len(f.Managers) != 0 {
		t.Fatalf("deleted out of band carries values or managers:\n%s", dump(t, r))
	}
	// A snapshot with only the applied config does not say the object was
	// there: new, with the anomaly about the incomplete record.
	r = analyze(t, Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"), Predicted: captured(t, "deploy-new.predicted")})
	if len(r.Findings) != 2 || r.Findings[0].Category != model.Anomaly || r.Findings[1].Category != model.New {
		t.Fatalf("applied only, gone:\n%s", dump(t, r))
	}
	r = analyze(t, Input{Applied: manifest(t, "web-scaled"), Deployed: captured(t, "deploy-scaled.applied.live"), Live: captured(t, "deploy-scaled.live")})
	if len(r.Findings) != 1 || r.Findings[0].Category != model.Removed || r.Findings[0].Path != "" {
		t.Fatalf("removed:\n%s", dump(t, r))
	}
	r = analyze(t, Input{Applied: manifest(t, "web-scaled"), Deployed: captured(t, "deploy-scaled.applied.live")})
	if len(r.Findings) != 1 || !strings.HasSuffix(r.Findings[0].Message, "(it is already gone from the cluster)") {
		t.Fatalf("removed and gone:\n%s", dump(t, r))
	}
	r = analyze(t, Input{Live: captured(t, "deploy-scaled.live")})
	if len(r.Findings) != 0 {
		t.Fatalf("nothing to compare, nothing to say:\n%s", dump(t, r))
	}
}

func TestIncompleteSnapshot(t *testing.T) {
	for _, tc := range []struct {
		name    string
		in      Input
		missing string
	}{
		{"no applied config", Input{Deployed: captured(t, "deploy-scaled.applied.live")}, "no applied config"},
		{"no deployed object", Input{Applied: manifest(t, "web-scaled")}, "no deployed object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in
			in.Desired, in.Live, in.Predicted = manifest(t, "web-scaled"), captured(t, "deploy-scaled.live"), captured(t, "deploy-scaled.predicted")
			r := analyze(t, in)
			if r.Baseline != BaselineLive {
				t.Errorf("baseline %q", r.Baseline)
			}
			var found bool
			for _, f := range r.Findings {
				found = found || (f.Category == model.Anomaly && f.Path == "" && strings.Contains(f.Message, tc.missing))
			}
			if !found {
				t.Fatalf("want an anomaly naming %q:\n%s", tc.missing, dump(t, r))
			}
		})
	}
}

// The managedFields order depends on timestamps; findings must not.
func TestDeterministic(t *testing.T) {
	in := Input{FieldManager: "eno", Desired: manifest(t, "web-initc-eno-without-init"), Applied: manifest(t, "web-initc-eno"),
		Deployed: captured(t, "initc-split.live"), Live: captured(t, "initc-split.live")}
	want := dump(t, analyze(t, in))
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 20; i++ {
		live := in.Live.DeepCopy()
		l, _, _ := unstructured.NestedSlice(live.Object, "metadata", "managedFields")
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
		_ = unstructured.SetNestedSlice(live.Object, l, "metadata", "managedFields")
		in2 := in
		in2.Live, in2.Deployed = live, live
		if got := dump(t, analyze(t, in2)); got != want {
			t.Fatalf("order changed the result:\n%s\nwant\n%s", got, want)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	bad := edit(t, captured(t, "deploy-scaled.live")).obj()
	l, _, _ := unstructured.NestedSlice(bad.Object, "metadata", "managedFields")
	l[0].(map[string]any)["fieldsV1"] = map[string]any{"k:{oops": map[string]any{}}
	_ = unstructured.SetNestedSlice(bad.Object, l, "metadata", "managedFields")

	typo := with(t, manifest(t, "web-scaled"), int64(3), "spec", "replica")
	for _, tc := range []struct {
		name string
		in   Input
		want string
	}{
		{"no field manager", Input{Desired: manifest(t, "web-scaled")}, "Deployment.apps/capture/web-scaled: no field manager given"},
		{"corrupt live managedFields", Input{FieldManager: "deployer", Desired: manifest(t, "web-scaled"), Live: bad},
			"Deployment.apps/capture/web-scaled: live: managedFields[0] (deployer (Apply)): invalid fieldsV1"},
		{"corrupt snapshot", Input{FieldManager: "deployer", Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"), Deployed: bad, Live: captured(t, "deploy-scaled.live")},
			"Deployment.apps/capture/web-scaled: snapshot deployed: managedFields[0]"},
		{"corrupt prediction", Input{FieldManager: "deployer", Desired: manifest(t, "web-scaled"), Live: captured(t, "deploy-scaled.live"), Predicted: bad},
			"Deployment.apps/capture/web-scaled: prediction: managedFields[0]"},
		{"field not in the schema", Input{FieldManager: "deployer", Desired: typo, Live: captured(t, "deploy-scaled.live")},
			"Deployment.apps/capture/web-scaled: desired: .spec.replica: field not declared in schema"},
		{"applied config not in the schema", Input{FieldManager: "deployer", Desired: manifest(t, "web-scaled"), Applied: typo,
			Deployed: captured(t, "deploy-scaled.applied.live"), Live: captured(t, "deploy-scaled.live")},
			"Deployment.apps/capture/web-scaled: snapshot applied config: .spec.replica"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Analyze(tc.in)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("error %v, want prefix %q", err, tc.want)
			}
			if _, err := Explain(tc.in, path(t, replicasPath)); err == nil {
				t.Fatal("Explain: no error")
			}
		})
	}
}

// Findings marshal to the report's JSON shape (docs/report.md).
func TestFindingJSON(t *testing.T) {
	tc := rowCases[13]
	in := tc.in(t)
	in.FieldManager = "deployer"
	r := analyze(t, in)
	b, err := json.Marshal(r.Findings[0])
	if err != nil {
		t.Fatal(err)
	}
	want := `{"category":"drift","row":13,"prevOwned":true,"nowOwned":true,"configChanged":false,"externalChanged":true,` +
		`"path":".spec.replicas","deployedValue":3,"liveValue":5,"desiredValue":3,` +
		`"managers":[{"manager":"kubectl","operation":"Update","subresource":"scale"}],` +
		`"message":"changed from 3 to 5 by kubectl (Update, scale); the deploy reverts it to 3"}`
	if string(b) != want {
		t.Errorf("JSON:\n got %s\nwant %s", b, want)
	}
}
