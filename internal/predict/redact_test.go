package predict

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestRedactSecretValues(t *testing.T) {
	secret := obj(t, `
apiVersion: v1
kind: Secret
metadata: {name: db, namespace: shop}
data: {password: aHVudGVyMg==}
stringData: {token: 12345}
`)
	msg := `Secret "db" is invalid: .stringData.token: expected string, got &value.valueUnstructured{Value:12345}; data: aHVudGVyMg== (hunter2)`
	e := &DryRunError{
		ID: secret.ID, Message: msg, Err: errors.New(msg),
		Causes: []metav1.StatusCause{{Message: "got 12345", Field: "stringData[hunter2]"}},
	}
	redactSecretValues(e, secret.Object, nil)
	for _, leaked := range []string{"12345", "aHVudGVyMg==", "hunter2", "MTIzNDU="} {
		for _, s := range []string{e.Message, e.Err.Error(), e.Causes[0].Message, e.Causes[0].Field} {
			if strings.Contains(s, leaked) {
				t.Errorf("%q leaks %q", s, leaked)
			}
		}
	}
	if !strings.Contains(e.Message, `Secret "db" is invalid`) {
		t.Errorf("message lost its sense: %q", e.Message)
	}
}

func TestRedactLeavesOtherKindsAlone(t *testing.T) {
	cm := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {k: "12345"}}`)
	if v := model.SecretValues(cm.Object); v.Len() != 0 {
		t.Errorf("values of a ConfigMap collected: %v", v)
	}
}
