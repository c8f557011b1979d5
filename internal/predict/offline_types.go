package predict

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"

	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/typing"
)

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
	types *typing.Cache
	byGV  parallel.Keyed[schema.GroupVersionKind, *kindManager]
}

func newManagers(types *typing.Cache) *managers {
	return &managers{types: types}
}

func (m *managers) get(gvk schema.GroupVersionKind) *kindManager {
	// Never cancelled: built from the schemas alone.
	km, _ := m.byGV.Get(context.Background(), gvk, func(context.Context) (*kindManager, error) { return m.build(gvk), nil })
	return km
}

// build makes the field manager the API server would use: the default one
// for the kinds it compiles in, the CRD one (no defaulting, versions
// converted by relabelling) for the others.
func (m *managers) build(gvk schema.GroupVersionKind) *kindManager {
	var conv unstructuredConverter
	gv := gvk.GroupVersion()
	k := m.types.Kind(gvk)
	km := &kindManager{deduced: k.Deduced}
	if typing.IsBuiltin(gvk) {
		km.fm, km.err = managedfields.NewDefaultFieldManager(k.Types, conv, conv, conv, gvk, gv, "", nil)
		return km
	}
	km.fm, km.err = managedfields.NewDefaultCRDFieldManager(k.Types, conv, conv, conv, gvk, gv, "", nil)
	return km
}
