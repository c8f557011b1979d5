package controllers

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestFights: a path an autoscaler is set up to manage is a fight only
// when the deploy sends it, and once per controller; a nil set knows no
// autoscaler.
func TestFights(t *testing.T) {
	s := NewSet([]*unstructured.Unstructured{parse(t, hpa)}, []*unstructured.Unstructured{parse(t, hpa)})
	obj := func(y string) model.Object {
		u := parse(t, y)
		return model.Object{ID: model.IDOf(u), Object: u}
	}
	got := s.Fights(obj(web))
	if len(got) != 1 {
		t.Fatalf("fights %+v, want one", got)
	}
	f := got[0]
	if f.Category != model.Fight || f.Path != ".spec.replicas" || f.Controller == nil || f.Controller.String() != "HorizontalPodAutoscaler shop/web-hpa" ||
		!strings.Contains(f.Message, "the deploy sends .spec.replicas, which HorizontalPodAutoscaler shop/web-hpa manages (it scales Deployment web between 2 and 5 replicas)") {
		t.Errorf("fight %+v", f)
	}
	if got := s.Fights(obj(`{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}}`)); len(got) != 0 {
		t.Errorf("a Deployment that does not send replicas fights: %+v", got)
	}
	if got := (*Set)(nil).Fights(obj(web)); len(got) != 0 {
		t.Errorf("a nil set fights: %+v", got)
	}
	if got := s.Fights(model.Object{}); got != nil {
		t.Errorf("no object fights: %+v", got)
	}
}
