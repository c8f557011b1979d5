package predict

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func selectorDeployment(ns, app, container string) string {
	return `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ` + ns + `}
spec:
  selector: {matchLabels: {app: ` + app + `}}
  template:
    metadata: {labels: {app: ` + app + `}}
    spec:
      containers:
      - {name: ` + container + `, image: nginx:1.27}
`
}

// TestCreateAskedAfterAnInvalidApply: the apply of an existing object
// refused as Invalid (an immutable selector) is followed by a dry-run
// create of the same manifest. A valid manifest's create passes (no
// CreateErr); an invalid one's refusal is read back onto the object's own
// name; an object whose name its content fixes (a
// CustomResourceDefinition) is refused for the generated name alone,
// which says nothing of the manifest; a new object is not asked twice.
func TestCreateAskedAfterAnInvalidApply(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	apply(t, kc, "deployer", obj(t, selectorDeployment(ns, "web", "app")))

	t.Run("the create passes", func(t *testing.T) {
		r := predict(t, e, obj(t, selectorDeployment(ns, "web2", "app")))[0]
		if r.Err == nil || r.Err.Reason != "Invalid" {
			t.Fatalf("apply: err %v, want Invalid (selector immutable)", r.Err)
		}
		if r.CreateErr != nil {
			t.Errorf("CreateErr %+v, want none: the manifest is valid as a new object", r.CreateErr)
		}
	})
	t.Run("the create is refused", func(t *testing.T) {
		r := predict(t, e, obj(t, selectorDeployment(ns, "web2", "Bad_Name")))[0]
		c := r.CreateErr
		if c == nil {
			t.Fatalf("no CreateErr; apply: %v", r.Err)
		}
		if c.Reason != "Invalid" || !strings.Contains(c.Message, `"web"`) || strings.Contains(c.Message, `"web-`) {
			t.Errorf("CreateErr %q (%s), want Invalid naming Deployment web", c.Message, c.Reason)
		}
		found := false
		for _, cause := range c.Causes {
			found = found || strings.Contains(cause.Field, "containers[0].name")
			if isNameField(cause.Field) {
				t.Errorf("a cause about the generated name is kept: %+v", cause)
			}
		}
		if !found {
			t.Errorf("causes %+v, want the container's name", c.Causes)
		}
	})
	t.Run("a new object is not asked twice", func(t *testing.T) {
		r := predict(t, e, obj(t, strings.Replace(selectorDeployment(ns, "web", "Bad_Name"), "name: web,", "name: fresh,", 1)))[0]
		if r.Err == nil || r.Live != nil || r.CreateErr != nil {
			t.Errorf("new invalid object: err %v, live %v, CreateErr %v; want the apply's refusal alone", r.Err, r.Live != nil, r.CreateErr)
		}
	})
	t.Run("refused for the generated name alone", func(t *testing.T) {
		crd := func(group string) model.Object {
			return obj(t, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gauges.s37c.example.com}
spec:
  group: `+group+`
  names: {kind: Gauge, plural: gauges, singular: gauge, listKind: GaugeList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object}}
`)
		}
		apply(t, kc, "deployer", crd("s37c.example.com"))
		// The name no longer matches the group: refused on the apply, and
		// on the create for the generated name, which matches neither.
		r := predict(t, e, crd("s37d.example.com"))[0]
		if r.Err == nil || r.Err.Reason != "Invalid" {
			t.Fatalf("apply: err %v, want Invalid (name and group disagree)", r.Err)
		}
		if r.CreateErr != nil {
			t.Errorf("CreateErr %+v, want none: only the generated name was refused", r.CreateErr)
		}
	})
}
