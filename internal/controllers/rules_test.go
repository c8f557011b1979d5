package controllers

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
)

func parse(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(s), &u.Object); err != nil {
		t.Fatal(err)
	}
	return u
}

const (
	web = `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop}, spec: {replicas: 2}}`
	hpa = `{apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: web-hpa, namespace: shop},
	        spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, minReplicas: 2, maxReplicas: 5}}`
)

func TestHorizontalPodAutoscaler(t *testing.T) {
	s := NewSet([]*unstructured.Unstructured{parse(t, hpa)})
	claims := s.For(parse(t, web))
	if len(claims) != 1 {
		t.Fatalf("claims %+v", claims)
	}
	c := claims[0]
	if c.Path.String() != ".spec.replicas" || c.Controller.String() != "HorizontalPodAutoscaler shop/web-hpa" ||
		c.Controller.Manager != "kube-controller-manager" || c.Why != "it scales Deployment web between 2 and 5 replicas" {
		t.Errorf("claim %+v (%s)", c, c.Controller)
	}
	other := parse(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: other}}`)
	if got := s.For(other); len(got) != 0 {
		t.Errorf("an autoscaler claims a Deployment of another namespace: %+v", got)
	}
	old := parse(t, `{apiVersion: autoscaling/v1, kind: HorizontalPodAutoscaler, metadata: {name: old, namespace: shop},
	        spec: {scaleTargetRef: {apiVersion: extensions/v1beta1, kind: Deployment, name: web}, maxReplicas: 3}}`)
	if got := NewSet([]*unstructured.Unstructured{old}).For(parse(t, web)); len(got) != 1 || got[0].Why != "it scales Deployment web up to 3 replicas" {
		t.Errorf("an autoscaler naming extensions/v1beta1 misses the apps Deployment: %+v", got)
	}
	sts := parse(t, `{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: web, namespace: shop}}`)
	if got := s.For(sts); len(got) != 0 {
		t.Errorf("an autoscaler of a Deployment claims a StatefulSet: %+v", got)
	}
}

// The deploy applies the autoscaler it renders: its target wins over the
// cluster's copy.
func TestRenderedSourceWins(t *testing.T) {
	live := parse(t, `{apiVersion: autoscaling/v2, kind: HorizontalPodAutoscaler, metadata: {name: web-hpa, namespace: shop},
	        spec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: api}}}`)
	s := NewSet([]*unstructured.Unstructured{parse(t, hpa)}, []*unstructured.Unstructured{live})
	if len(s.For(parse(t, web))) != 1 {
		t.Error("the rendered autoscaler's target lost its claim")
	}
	api := parse(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: api, namespace: shop}}`)
	if got := s.For(api); len(got) != 0 {
		t.Errorf("the cluster's stale copy still claims api: %+v", got)
	}
}

func TestScaledObjectDefaultsToDeployment(t *testing.T) {
	so := parse(t, `{apiVersion: keda.sh/v1alpha1, kind: ScaledObject, metadata: {name: web, namespace: shop},
	        spec: {scaleTargetRef: {name: web}, maxReplicaCount: 10}}`)
	claims := NewSet([]*unstructured.Unstructured{so}).For(parse(t, web))
	if len(claims) != 1 || claims[0].Controller.Name != "KEDA ScaledObject" || claims[0].Why != "it scales Deployment web up to 10 replicas" {
		t.Errorf("claims %+v", claims)
	}
}

func TestCAInjection(t *testing.T) {
	vwc := parse(t, `{apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration,
	  metadata: {name: shop, annotations: {cert-manager.io/inject-ca-from: shop/serving-cert}},
	  webhooks: [{name: a.shop.example.com, clientConfig: {caBundle: Zm9v}}, {name: b.shop.example.com}]}`)
	claims := NewSet().For(vwc)
	var paths []string
	for _, c := range claims {
		paths = append(paths, c.Path.String())
		if c.Controller.Manager != "cert-manager-cainjector" || c.Controller.Object != nil {
			t.Errorf("claim %+v", c)
		}
	}
	want := []string{`.webhooks[name="a.shop.example.com"].clientConfig.caBundle`, `.webhooks[name="b.shop.example.com"].clientConfig.caBundle`}
	if len(paths) != 2 || paths[0] != want[0] || paths[1] != want[1] {
		t.Errorf("paths %q, want %q", paths, want)
	}
	crd := parse(t, `{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition,
	  metadata: {name: widgets.example.com, annotations: {cert-manager.io/inject-ca-from-secret: cert-manager/ca}}}`)
	if c := NewSet().For(crd); len(c) != 1 || c[0].Path.String() != ".spec.conversion.webhook.clientConfig.caBundle" {
		t.Errorf("crd claims %+v", c)
	}
	plain := parse(t, `{apiVersion: admissionregistration.k8s.io/v1, kind: ValidatingWebhookConfiguration, metadata: {name: x}, webhooks: [{name: a}]}`)
	if c := NewSet().For(plain); len(c) != 0 {
		t.Errorf("no annotation, yet claims %+v", c)
	}
}

func TestNamespaces(t *testing.T) {
	objs := []model.Object{
		{ID: model.ID{Kind: "Namespace", Name: "shop"}},
		{ID: model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "a"}},
		{ID: model.ID{Kind: "ConfigMap", Namespace: "api", Name: "b"}},
	}
	if got := Namespaces(objs); len(got) != 2 || got[0] != "api" || got[1] != "shop" {
		t.Errorf("%v", got)
	}
}
