package predict

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

func TestLivePlanListsCrowdedKinds(t *testing.T) {
	cm := &meta.RESTMapping{Resource: schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}}
	deploy := &meta.RESTMapping{Resource: schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}}
	var targets []*target
	for i := 0; i < 3; i++ {
		targets = append(targets, &target{mapping: cm, namespace: "a"})
	}
	targets = append(targets, &target{mapping: cm, namespace: "b"}, &target{mapping: deploy, namespace: "a"})

	lists, gets := (&liveReader{listThreshold: 3}).plan(targets)
	if len(lists) != 1 || lists[0].namespace != "a" || lists[0].resource != cm.Resource || len(lists[0].targets) != 3 {
		t.Errorf("lists %+v; want one LIST of the 3 ConfigMaps in a", lists)
	}
	if len(gets) != 2 {
		t.Errorf("%d GETs; want 2", len(gets))
	}
	if lists, gets := (&liveReader{listThreshold: 0}).plan(targets); len(lists) != 0 || len(gets) != 5 {
		t.Errorf("threshold 0: %d lists, %d gets; want 0 and 5", len(lists), len(gets))
	}
}
