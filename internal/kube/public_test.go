package kube_test

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// A credential is hidden with the words a Secret's value is: one word for
// anything hidden, whichever package hides it.
func TestCredentialTextIsTheHiddenText(t *testing.T) {
	if kube.CredentialText != model.HiddenValue {
		t.Fatalf("kube.CredentialText = %q, model.HiddenValue = %q: they must read the same", kube.CredentialText, model.HiddenValue)
	}
}
