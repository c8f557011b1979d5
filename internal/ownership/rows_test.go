package ownership

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

const (
	replicasPath = ".spec.replicas"
	imagePath    = `.spec.template.spec.containers[name="app"].image`
	notePath     = ".metadata.annotations.deployed-by"
)

// rowCase is one row of the table with an object that really gets there.
// Objects come from the real API server captures in testdata/managedfields;
// where a scenario needs a state the captures lack, the edit is small and
// named (a renamed manager, a value changed since).
type rowCase struct {
	row  int
	name string
	in   func(t *testing.T) Input
	path string
	// category is "" for a silent row.
	category model.Category
	// message, when set, is the exact message of the finding.
	message string
}

// hpaIgnored is web-hpa with .spec.replicas in the ignore list: the render
// drops it, and the autoscaler (hpa, Apply) owns it in live.
func hpaIgnored(t *testing.T) *unstructured.Unstructured {
	return without(manifest(t, "web-hpa"), "spec", "replicas")
}

func ignoreReplicas(p fieldpath.Path) bool { return p.String() == replicasPath }

// renamedDeployer is a snapshot or live object written when the pipeline
// still applied as "ci", with the deploy now applying as "deployer".
func renamedDeployer(t *testing.T, name string) *unstructured.Unstructured {
	return edit(t, captured(t, name)).rename("deployer", "ci").obj()
}

// coOwnedByCI is the prediction after "deployer" force-applies the same
// config over "ci"'s fields: identical values, so both own them.
func coOwnedByCI(t *testing.T, name string) *unstructured.Unstructured {
	u := captured(t, name)
	l, _, _ := unstructured.NestedSlice(u.Object, "metadata", "managedFields")
	ci := map[string]any{}
	for k, v := range l[0].(map[string]any) {
		ci[k] = v
	}
	ci["manager"] = "ci"
	_ = unstructured.SetNestedSlice(u.Object, append(l, ci), "metadata", "managedFields")
	return u
}

// withNote is a deployed object where a second tool applying as "deployer"
// (kubectl apply --server-side --field-manager=deployer by hand) added an
// annotation the pipeline's config does not have.
func withNote(t *testing.T, value string) *unstructured.Unstructured {
	return edit(t, captured(t, "deploy-scaled.applied.live")).
		set(value, "metadata", "annotations", "deployed-by").
		own("deployer", OperationApply, path(t, notePath)).obj()
}

var rowCases = []rowCase{
	{row: 0, name: "replicas ignored, autoscaler owns it, unchanged", path: replicasPath,
		in: func(t *testing.T) Input {
			return Input{Desired: hpaIgnored(t), Applied: hpaIgnored(t), Ignore: ignoreReplicas,
				Deployed: captured(t, "deploy-hpa.live"), Live: captured(t, "deploy-hpa.live"), Predicted: captured(t, "deploy-hpa.live")}
		}},
	{row: 1, name: "replicas ignored, autoscaler scaled since", path: replicasPath,
		in: func(t *testing.T) Input {
			return Input{Desired: hpaIgnored(t), Applied: hpaIgnored(t), Ignore: ignoreReplicas,
				Deployed:  captured(t, "deploy-hpa.live"),
				Live:      edit(t, captured(t, "deploy-hpa.live")).set(int64(9), "spec", "replicas").obj(),
				Predicted: captured(t, "deploy-hpa.live")}
		}},
	{row: 2, name: "replicas moved into the ignore list after the autoscaler took it", path: replicasPath,
		in: func(t *testing.T) Input {
			return Input{Desired: hpaIgnored(t), Applied: manifest(t, "web-hpa"), Ignore: ignoreReplicas,
				Deployed: captured(t, "deploy-hpa.live"), Live: captured(t, "deploy-hpa.live"), Predicted: captured(t, "deploy-hpa.live")}
		}},
	{row: 3, name: "replicas moved into the ignore list, autoscaler scaled since", path: replicasPath,
		in: func(t *testing.T) Input {
			return Input{Desired: hpaIgnored(t), Applied: manifest(t, "web-hpa"), Ignore: ignoreReplicas,
				Deployed:  captured(t, "deploy-hpa.live"),
				Live:      edit(t, captured(t, "deploy-hpa.live")).set(int64(9), "spec", "replicas").obj(),
				Predicted: captured(t, "deploy-hpa.live")}
		}},
	{row: 4, name: "field manager renamed from ci to deployer", path: imagePath, category: model.Anomaly,
		message: "this ownership change should not happen: the deploy did not own the field at the last deploy and would own it after this one, " +
			"though the config did not change it and no one else changed it; was the field manager renamed, or was the snapshot recorded with another one? " +
			"If not, please report it at https://github.com/ownership-check/ownership-check/issues with this report's JSON",
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"),
				Deployed: renamedDeployer(t, "deploy-scaled.applied.live"), Live: renamedDeployer(t, "deploy-scaled.applied.live"),
				Predicted: coOwnedByCI(t, "deploy-scaled.applied.live")}
		}},
	{row: 5, name: "field manager renamed, and the image edited by kubectl since", path: imagePath, category: model.Anomaly,
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-edited"), Applied: manifest(t, "web-edited"),
				Deployed: renamedDeployer(t, "deploy-edited.predicted"), Live: renamedDeployer(t, "deploy-edited.live"),
				Predicted: coOwnedByCI(t, "deploy-edited.predicted")}
		}},
	{row: 6, name: "replicas removed from the ignore list, autoscaler idle", path: replicasPath, category: model.Taking,
		message: "taken over from hpa (Apply): changed from 7 to 3",
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-hpa"), Applied: hpaIgnored(t),
				Deployed: captured(t, "deploy-hpa.live"), Live: captured(t, "deploy-hpa.live"), Predicted: captured(t, "deploy-hpa.predicted")}
		}},
	{row: 7, name: "replicas removed from the ignore list while the autoscaler changed it", path: replicasPath, category: model.TakingConflict,
		message: "changed from 7 to 9 by hpa (Apply) since the last deploy; the deploy takes it over and sets it to 3",
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-hpa"), Applied: hpaIgnored(t),
				Deployed:  captured(t, "deploy-hpa.live"),
				Live:      edit(t, captured(t, "deploy-hpa.live")).set(int64(9), "spec", "replicas").obj(),
				Predicted: captured(t, "deploy-hpa.predicted")}
		}},
	{row: 8, name: "a hand-run apply under the same manager name added an annotation", path: notePath, category: model.Anomaly,
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"),
				Deployed: withNote(t, "x"), Live: withNote(t, "x"), Predicted: captured(t, "deploy-scaled.applied.live")}
		}},
	{row: 9, name: "the same, and the annotation changed since", path: notePath, category: model.Anomaly,
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"),
				Deployed: withNote(t, "x"), Live: withNote(t, "y"), Predicted: captured(t, "deploy-scaled.applied.live")}
		}},
	{row: 10, name: "replicas added to the ignore list, no autoscaler", path: replicasPath, category: model.Release,
		message: "released: now in the ignore list",
		in: func(t *testing.T) Input {
			return Input{Desired: without(manifest(t, "web-scaled"), "spec", "replicas"), Applied: manifest(t, "web-scaled"), Ignore: ignoreReplicas,
				Deployed: captured(t, "deploy-scaled.applied.live"), Live: captured(t, "deploy-scaled.applied.live"),
				Predicted: edit(t, captured(t, "deploy-scaled.applied.live")).disown("deployer", OperationApply, path(t, replicasPath)).obj()}
		}},
	{row: 11, name: "replicas added to the ignore list while the autoscaler scaled", path: replicasPath, category: model.Release,
		message: "released: now in the ignore list; it was changed from 3 to 7 by hpa (Apply) since the last deploy",
		in: func(t *testing.T) Input {
			return Input{Desired: hpaIgnored(t), Applied: manifest(t, "web-hpa"), Ignore: ignoreReplicas,
				Deployed: captured(t, "deploy-hpa.predicted"), Live: captured(t, "deploy-hpa.live"), Predicted: captured(t, "deploy-hpa.live")}
		}},
	{row: 12, name: "another manager applied the identical image: shared, silent", path: imagePath,
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-shared"), Applied: manifest(t, "web-shared"),
				Deployed: edit(t, captured(t, "deploy-shared.live")).drop("other").obj(),
				Live:     captured(t, "deploy-shared.live"), Predicted: captured(t, "deploy-shared.live")}
		}},
	{row: 13, name: "kubectl scale since the last deploy", path: replicasPath, category: model.Drift,
		message: "changed from 3 to 5 by kubectl (Update, scale); the deploy reverts it to 3",
		in: func(t *testing.T) Input {
			return Input{Desired: manifest(t, "web-scaled"), Applied: manifest(t, "web-scaled"),
				Deployed: captured(t, "deploy-scaled.applied.live"), Live: captured(t, "deploy-scaled.live"), Predicted: captured(t, "deploy-scaled.predicted")}
		}},
	{row: 14, name: "the config changes the image", path: imagePath,
		in: func(t *testing.T) Input {
			return Input{Desired: withImage(t, manifest(t, "web-shared"), "nginx:1.26"),
				Applied:  manifest(t, "web-shared"),
				Deployed: edit(t, captured(t, "deploy-shared.live")).drop("other").obj(),
				Live:     captured(t, "deploy-shared.live"), Predicted: captured(t, "deploy-shared.predicted-image-changed")}
		}},
	{row: 15, name: "image edited by kubectl edit and changed in the config", path: imagePath, category: model.UpdateConflict,
		message: `changed from "nginx:1.25" to "nginx:1.26" by kubectl-edit (Update) since the last deploy, ` +
			`and the config changed from "nginx:1.25" to "nginx:1.27"; the deploy sets it to "nginx:1.27"`,
		in: func(t *testing.T) Input {
			return Input{Desired: withImage(t, manifest(t, "web-edited"), "nginx:1.27"), Applied: manifest(t, "web-edited"),
				Deployed: captured(t, "deploy-edited.predicted"), Live: captured(t, "deploy-edited.live"), Predicted: captured(t, "deploy-edited.predicted")}
		}},
}

// withImage sets the image of container "app".
func withImage(t *testing.T, u *unstructured.Unstructured, image string) *unstructured.Unstructured {
	t.Helper()
	c := u.DeepCopy()
	containers, _, _ := unstructured.NestedSlice(c.Object, "spec", "template", "spec", "containers")
	containers[0].(map[string]any)["image"] = image
	if err := unstructured.SetNestedSlice(c.Object, containers, "spec", "template", "spec", "containers"); err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRows(t *testing.T) {
	seen := map[int]bool{}
	for _, tc := range rowCases {
		seen[tc.row] = true
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			in.FieldManager = "deployer"
			p := path(t, tc.path)
			tr, err := Explain(in, p)
			if err != nil {
				t.Fatal(err)
			}
			if tr.Row != tc.row {
				t.Fatalf("row of %s = %d (%+v), want %d", tc.path, tr.Row, tr, tc.row)
			}
			r := analyze(t, in)
			if r.Baseline != BaselineSnapshot {
				t.Errorf("baseline = %q", r.Baseline)
			}
			var got []model.Finding
			for _, f := range r.Findings {
				if f.Path == tc.path && f.Transition != nil {
					got = append(got, f)
				}
			}
			if tc.category == "" {
				if len(got) != 0 {
					t.Fatalf("silent row %d reported: %+v", tc.row, got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one %s finding on %s, got %d:\n%s", tc.category, tc.path, len(got), dump(t, r))
			}
			f := got[0]
			if f.Category != tc.category || f.Row != tc.row {
				t.Errorf("got %s row %d, want %s row %d", f.Category, f.Row, tc.category, tc.row)
			}
			if tc.message != "" && f.Message != tc.message {
				t.Errorf("message:\n got %s\nwant %s", f.Message, tc.message)
			}
		})
	}
	for row := 0; row < 16; row++ {
		if !seen[row] {
			t.Errorf("row %d has no case", row)
		}
	}
}

// TestRowsNothingElse checks the scenarios report exactly what they are
// about: captured objects carry dozens of server-defaulted fields, none of
// which may leak into findings.
func TestRowsNothingElse(t *testing.T) {
	want := map[int][]string{
		0:  nil,
		1:  nil,
		2:  nil,
		3:  nil,
		6:  {"taking " + replicasPath},
		7:  {"taking-conflict " + replicasPath},
		10: {"reset " + replicasPath, "release " + replicasPath},
		11: {"retained " + replicasPath, "release " + replicasPath},
		12: nil,
		13: {"drift " + replicasPath},
		14: nil,
		15: {"update-conflict " + imagePath},
	}
	for _, tc := range rowCases {
		w, ok := want[tc.row]
		if !ok {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			in := tc.in(t)
			in.FieldManager = "deployer"
			r := analyze(t, in)
			var got []string
			for _, f := range r.Findings {
				got = append(got, string(f.Category)+" "+f.Path)
			}
			if strings.Join(got, "\n") != strings.Join(w, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(w, "\n"))
			}
		})
	}
}

func TestClassifyAllRows(t *testing.T) {
	want := map[int]model.Category{
		4: model.Anomaly, 5: model.Anomaly, 6: model.Taking, 7: model.TakingConflict, 8: model.Anomaly, 9: model.Anomaly,
		10: model.Release, 11: model.Release, 13: model.Drift, 15: model.UpdateConflict,
	}
	levels := map[int]model.Level{
		4: model.LevelError, 5: model.LevelError, 6: model.LevelNote, 7: model.LevelWarning, 8: model.LevelError, 9: model.LevelError,
		10: model.LevelNote, 11: model.LevelNote, 13: model.LevelWarning, 15: model.LevelWarning,
	}
	for row := 0; row < 16; row++ {
		tr := model.NewTransition(row&8 != 0, row&4 != 0, row&2 != 0, row&1 != 0)
		if tr.Row != row {
			t.Fatalf("NewTransition row %d = %d", row, tr.Row)
		}
		c, ok := Classify(tr)
		if wc, reported := want[row]; ok != reported || c != wc {
			t.Errorf("row %d: Classify = %q, %t; want %q, %t", row, c, ok, wc, reported)
		}
		if ok && model.LevelOf(c) != levels[row] {
			t.Errorf("row %d: level %s, want %s", row, model.LevelOf(c), levels[row])
		}
	}
}
