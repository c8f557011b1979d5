package predict

import (
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
)

// builtinTypes is client-go's generated schema of every built-in kind: the
// same structure (keyed lists, atomic maps, defaulted keys) the API server
// merges with.
var builtinTypes = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(scheme.Scheme)
})

var deducedTypes = sync.OnceValue(managedfields.NewDeducedTypeConverter)

// kindManager is the field manager of one kind and version, and how its
// structure is known.
type kindManager struct {
	fm *managedfields.FieldManager
	// deduced says why the kind has no schema; empty when it has one.
	deduced string
	err     error
}

// managers builds field managers on first use, one per kind and version.
type managers struct {
	crds crdKinds
	mu   sync.Mutex
	byGV map[schema.GroupVersionKind]*kindManager
}

func newManagers(crds crdKinds) *managers {
	return &managers{crds: crds, byGV: map[schema.GroupVersionKind]*kindManager{}}
}

func (m *managers) get(gvk schema.GroupVersionKind) *kindManager {
	m.mu.Lock()
	defer m.mu.Unlock()
	if km, ok := m.byGV[gvk]; ok {
		return km
	}
	km := m.build(gvk)
	m.byGV[gvk] = km
	return km
}

func (m *managers) build(gvk schema.GroupVersionKind) *kindManager {
	var conv unstructuredConverter
	gv := gvk.GroupVersion()
	km := &kindManager{}
	if scheme.Scheme.Recognizes(gvk) {
		km.fm, km.err = managedfields.NewDefaultFieldManager(builtinTypes(), conv, conv, conv, gvk, gv, "", nil)
		return km
	}
	types := deducedTypes()
	if ck, ok := m.crds[gvk]; ok && ck.types != nil {
		types = ck.types
	} else if ok {
		km.deduced = ck.why
	} else if isCRD(gvk) {
		km.deduced = "CustomResourceDefinition objects themselves have no schema offline (client-go carries none)"
	} else {
		km.deduced = fmt.Sprintf("no CustomResourceDefinition for %s in the render or the snapshot", gvk.GroupVersion().WithKind(gvk.Kind))
	}
	km.fm, km.err = managedfields.NewDefaultCRDFieldManager(types, conv, conv, conv, gvk, gv, "", nil)
	return km
}
