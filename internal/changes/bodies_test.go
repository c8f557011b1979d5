package changes

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestBodiesHideValues: the YAML a comment shows of an object hides what
// the per-field diff hides (a secret-like env value) and leaves out the
// server's bookkeeping; a created object has its manifest.
func TestBodiesHideValues(t *testing.T) {
	live := deploymentWith(t, "12", "nginx:1.26", "hunter2", "app-config-5gm2mt6bbk")
	pred := deploymentWith(t, "12", "nginx:1.27", "hunter3", "app-config-9bk7tmcdtg")
	id := model.ID{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	r := Of(Input{ID: id, Live: live, Predicted: pred})
	if r.Bodies == nil {
		t.Fatal("an update has no bodies")
	}
	for _, side := range []string{r.Bodies.Before, r.Bodies.After} {
		for _, leak := range []string{"hunter2", "hunter3", "resourceVersion", "uid: u1", "status:"} {
			if strings.Contains(side, leak) {
				t.Errorf("body shows %q:\n%s", leak, side)
			}
		}
	}
	if !strings.Contains(r.Bodies.After, "image: nginx:1.27") || !strings.Contains(r.Bodies.After, "value: "+model.HiddenValue) {
		t.Errorf("after:\n%s", r.Bodies.After)
	}
	c := Of(Input{ID: id, Predicted: pred})
	if c.Change != model.ChangeCreate || c.Bodies == nil || c.Bodies.Before != "" || !strings.Contains(c.Bodies.After, "name: sidecar") {
		t.Errorf("create: %+v", c.Bodies)
	}
}

// TestBodiesOfASecret: a Secret's change never shows a value, in data,
// stringData or the last-applied annotation.
func TestBodiesOfASecret(t *testing.T) {
	live := obj(t, `
apiVersion: v1
kind: Secret
metadata:
  name: db
  namespace: shop
  annotations: {kubectl.kubernetes.io/last-applied-configuration: '{"data":{"password":"b2xk"}}'}
data: {password: b2xk}
`)
	pred := obj(t, `
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
data: {password: bmV3}
stringData: {token: s3cr3t}
`)
	id := model.ID{Kind: "Secret", Namespace: "shop", Name: "db"}
	for _, b := range []*model.Bodies{Of(Input{ID: id, Live: live, Predicted: pred}).Bodies, Of(Input{ID: id, Predicted: pred}).Bodies} {
		if b == nil {
			t.Fatal("no bodies")
		}
		for _, leak := range []string{"b2xk", "bmV3", "s3cr3t"} {
			if strings.Contains(b.Before+b.After, leak) {
				t.Errorf("a Secret's body shows %q:\n%s\n---\n%s", leak, b.Before, b.After)
			}
		}
	}
}
