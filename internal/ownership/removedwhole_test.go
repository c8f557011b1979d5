package ownership

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

const envLevel = `.spec.template.spec.containers[name="app"].env[name="LEVEL"]`

// envDeployment is a Deployment whose container sends the env items given
// (YAML flow items).
func envDeployment(t *testing.T, items string) *unstructured.Unstructured {
	t.Helper()
	return fromYAML(t, `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: app
          image: web:1
          env: [`+items+`]
`)
}

func appsEntry(manager, fields string) metav1.ManagedFieldsEntry {
	e := entryOf(manager, "Update", "", fields)
	e.APIVersion = "apps/v1"
	return e
}

// An env item the deploy applied, whose value `kubectl set env` changed
// since, dropped by the config: the client-side merge (and a replace)
// deletes it whole, as the prediction shows, whoever owns its value.
func envItemSetByHand(t *testing.T, m delivery.ApplyMethod, predicted string) Input {
	t.Helper()
	container := `"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:name":{},"f:image":{},"f:env":{".":{},` +
		`"k:{\"name\":\"MODE\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"LEVEL\"}":{".":{},"f:name":{}}}}}}}}`
	byHand := `{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:env":{"k:{\"name\":\"LEVEL\"}":{"f:value":{}}}}}}}}}`
	owned := func(u *unstructured.Unstructured) *unstructured.Unstructured {
		return withEntries(u, appsEntry("argocd-controller", "{"+container+"}"), appsEntry("kubectl-set", byHand))
	}
	return Input{
		FieldManager: "argocd-controller",
		Apply:        m,
		Desired:      envDeployment(t, `{name: MODE, value: fast}`),
		Live:         owned(envDeployment(t, `{name: MODE, value: fast}, {name: LEVEL, value: debug}`)),
		Predicted:    owned(envDeployment(t, predicted)),
	}
}

func TestClientSideRemovesItemWhole(t *testing.T) {
	for _, m := range []delivery.ApplyMethod{
		{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied},
		{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest},
		{Method: delivery.ApplyReplace},
	} {
		t.Run(m.String(), func(t *testing.T) {
			r := analyze(t, envItemSetByHand(t, m, `{name: MODE, value: fast}`))
			if got := byPath(r, model.SplitOwnership, envLevel); len(got) > 0 {
				t.Errorf("split-ownership under %s, which leaves no partial item:\n%s", m, dump(t, r))
			}
			resets := byPath(r, model.Reset, envLevel)
			if len(resets) != 1 {
				t.Fatalf("want one reset of the whole item:\n%s", dump(t, r))
			}
			f := resets[0]
			if len(f.Managers) != 1 || f.Managers[0].Manager != "kubectl-set" || len(f.Owners) != 1 || f.Owners[0].Paths[0] != ".value" {
				t.Errorf("managers %+v, owners %+v: want kubectl-set owning .value", f.Managers, f.Owners)
			}
			want := rulesOf(m).how + " removes it whole, with the fields other managers set in it (kubectl-set (Update) owns .value): "
			if len(f.Message) < len(want) || f.Message[:len(want)] != want {
				t.Errorf("message %q, want it to start %q", f.Message, want)
			}
		})
	}
}

// A prediction that keeps the item whole (not in what the deployer
// applied before) removes nothing of it: no split, no removal.
func TestClientSideKeepsItemWhole(t *testing.T) {
	m := delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}
	r := analyze(t, envItemSetByHand(t, m, `{name: MODE, value: fast}, {name: LEVEL, value: debug}`))
	for _, c := range []model.Category{model.SplitOwnership, model.Reset} {
		if got := byPath(r, c, envLevel); len(got) > 0 {
			t.Errorf("%s on an item the prediction keeps:\n%s", c, dump(t, r))
		}
	}
}
