package model

import "testing"

func TestShortCommit(t *testing.T) {
	sha := "5d1e9c0a7b3f4e2d8c6a9b1f0e3d7c5a2b4f6e8d"
	if got := ShortCommit(sha); got != "5d1e9c0a7b3f" {
		t.Errorf("ShortCommit = %q", got)
	}
	if got := LinkCommit(sha); got != "5d1e9c0" {
		t.Errorf("LinkCommit = %q", got)
	}
	if got := ShortCommit("abc"); got != "abc" {
		t.Errorf("ShortCommit of a short string = %q, want it whole", got)
	}
}

func TestIsCRD(t *testing.T) {
	if !IsCRD(CRDVersionKind.GroupKind()) {
		t.Error("the CRD kind is not a CRD")
	}
	if IsCRD(CRDGroupKind.WithVersion("v1").GroupVersion().WithKind("Widget").GroupKind()) {
		t.Error("another kind of the CRD group is a CRD")
	}
}
