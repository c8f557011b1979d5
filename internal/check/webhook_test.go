package check_test

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
)

// TestScenarioWebhookMutationsAreNotDrift: the same as a
// MutatingAdmissionPolicy's, for a mutating webhook (served by the test on
// loopback, on every release): what it writes is neither drift nor an
// anomaly.
func TestScenarioWebhookMutationsAreNotDrift(t *testing.T) {
	s := newScenario(t, "admission-webhook")
	checkAdmissionMutations(t, s, "s37-webhook", func() { installLabelWebhook(t, "s37-webhook") })
}

// installLabelWebhook serves a webhook that sets team: platform and
// tier: gold on the namespace's ConfigMaps, and registers it; both are
// gone when the test ends, the registration first.
func installLabelWebhook(t *testing.T, ns string) {
	t.Helper()
	patch, err := json.Marshal([]map[string]any{
		{"op": "add", "path": "/metadata/labels/team", "value": "platform"},
		{"op": "add", "path": "/metadata/labels/tier", "value": "gold"},
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review admissionv1.AdmissionReview
		if err := json.NewDecoder(r.Body).Decode(&review); err != nil || review.Request == nil {
			http.Error(w, "not an AdmissionReview", http.StatusBadRequest)
			return
		}
		jsonPatch := admissionv1.PatchTypeJSONPatch
		review.Response = &admissionv1.AdmissionResponse{UID: review.Request.UID, Allowed: true, PatchType: &jsonPatch, Patch: patch}
		review.Request = nil
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(review)
	}))
	t.Cleanup(srv.Close)

	kc := kubernetes.NewForConfigOrDie(cluster.Config())
	url := srv.URL + "/mutate"
	none := admissionregistrationv1.SideEffectClassNone
	fail := admissionregistrationv1.Fail
	cfg := &admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: ns + "-labels"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "labels." + ns + ".example.com",
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: &url,
				CABundle: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})},
			Rules: []admissionregistrationv1.RuleWithOperations{{
				Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
				Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}},
			}},
			NamespaceSelector:       &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}},
			SideEffects:             &none,
			FailurePolicy:           &fail,
			AdmissionReviewVersions: []string{"v1"},
		}},
	}
	if _, err := kc.AdmissionregistrationV1().MutatingWebhookConfigurations().Create(context.Background(), cfg, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := kc.AdmissionregistrationV1().MutatingWebhookConfigurations().Delete(context.Background(), cfg.Name, metav1.DeleteOptions{}); err != nil {
			t.Error(err)
		}
	})
}
