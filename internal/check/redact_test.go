package check

import (
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
	in := analysis{Redaction: redaction(cfg), Public: kube.PublicFor(&rest.Config{Host: "https://10.1.2.3:6443"})}
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
