package judge

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// TestPublicDryRunError: an API server's error text loses the secret-like
// values of the object it is about, and the server's address.
func TestPublicDryRunError(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "shop"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{
			"name": "app", "args": []any{"--dsn=https://user:pw-9f1@db"},
			"env": []any{map[string]any{"name": "API_KEY", "value": "k-31337"}, map[string]any{"name": "MODE", "value": "fast"}},
		}}}}},
	}}
	cfg, err := config.Parse("c.yaml", []byte("redact:\n  paths:\n  - path: .spec.template.spec.containers[*].args\n    kind: Deployment\n"))
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Rules: Rules{Redaction: cfg.Redaction()}, Cluster: Cluster{Public: kube.PublicFor(&rest.Config{Host: "https://10.1.2.3:6443"})}}
	res := predict.Result{Object: model.Object{ID: model.IDOf(u), Object: u}}
	msg := in.public(`Deployment.apps "web" is invalid: env[0].value: "k-31337", args: "--dsn=https://user:pw-9f1@db", mode "fast"; Patch "https://10.1.2.3:6443/apis/apps/v1": EOF`, res)
	for _, gone := range []string{"k-31337", "pw-9f1", "10.1.2.3"} {
		if strings.Contains(msg, gone) {
			t.Errorf("%q is still in %q", gone, msg)
		}
	}
	if !strings.Contains(msg, `mode "fast"`) || !strings.Contains(msg, `Patch "(the API server)/apis/apps/v1"`) {
		t.Errorf("message %q", msg)
	}
}

// TestSubstitutedSecretValueHidden: a value the render took from a Secret
// into another kind of object (Flux's substituteFrom) is nowhere in the
// report: not in the diff, not in a finding, not in a message.
func TestSubstitutedSecretValueHidden(t *testing.T) {
	const token = "tk-5ecret-77"
	cm := func(endpoint string, managers ...any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "settings", "namespace": "shop", "managedFields": managers},
			"data":     map[string]any{"endpoint": endpoint, "mode": "fast"},
		}}
	}
	managed := func(manager, op string) any {
		return map[string]any{"manager": manager, "operation": op, "apiVersion": "v1", "fieldsType": "FieldsV1",
			"fieldsV1": map[string]any{"f:data": map[string]any{"f:endpoint": map[string]any{}, "f:mode": map[string]any{}}}}
	}
	desired := cm("https://api.example.com/?token=" + token)
	desired.SetManagedFields(nil)
	unstructured.RemoveNestedField(desired.Object, "metadata", "managedFields")
	live := cm("https://old.example.com/?token=old-"+token, managed("kustomize-controller", "Apply"))
	predicted := cm("https://api.example.com/?token="+token, managed("kustomize-controller", "Apply"))
	obj := model.Object{ID: model.IDOf(desired), Object: desired, HiddenValues: model.NewHidden(token)}
	in := Input{Check: Check{FieldManager: "kustomize-controller", Engine: "cluster"}, Rules: Rules{Redaction: (*config.Config)(nil).Redaction()}}.HideRendered(nil, []model.Object{obj})
	ro := in.analyse(predict.Result{Object: obj, Live: live, Predicted: predicted}, nil)
	out, err := json.Marshal(ro)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), token) {
		t.Errorf("the Secret's value is in the report: %s", out)
	}
	if !strings.Contains(string(out), "endpoint") {
		t.Errorf("the changed field is not in the report at all: %s", out)
	}
}
