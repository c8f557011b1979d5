package typing

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/applyconfigurations"
	"k8s.io/client-go/kubernetes/scheme"
)

// Builtin is client-go's generated schema of every built-in kind, built on
// first use and shared by the whole process: it takes about 0.1 s of CPU
// and 19 MB, which a run should pay once, and only when no better schema
// (the API server's, or a snapshot's) has the kind.
var Builtin = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(scheme.Scheme)
})

// Deduced types any object from its values: maps by key, lists atomic.
var Deduced = sync.OnceValue(managedfields.NewDeducedTypeConverter)

// IsBuiltin tells whether client-go's schema has the kind.
func IsBuiltin(gvk schema.GroupVersionKind) bool {
	return scheme.Scheme.Recognizes(gvk)
}
