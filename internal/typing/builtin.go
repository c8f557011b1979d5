package typing

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/applyconfigurations"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
)

// Scheme holds client-go's built-in kinds and nothing else. It is the
// module's own, never client-go's global scheme.Scheme: a library may add
// kinds to that one when it is imported (Helm's chartutil adds the
// CustomResourceDefinition types), and a kind there without client-go's
// generated schema would be "built in" with no type to merge it with.
var Scheme = func() *runtime.Scheme {
	s := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(s))
	return s
}()

// Builtin is client-go's generated schema of every built-in kind, built on
// first use and shared by the whole process: it takes about 0.1 s of CPU
// and 19 MB, which a run should pay once, and only when no better schema
// (the API server's, or a snapshot's) has the kind.
var Builtin = sync.OnceValue(func() managedfields.TypeConverter {
	return applyconfigurations.NewTypeConverter(Scheme)
})

// Deduced types any object from its values: maps by key, lists atomic.
var Deduced = sync.OnceValue(managedfields.NewDeducedTypeConverter)

// IsBuiltin tells whether client-go's schema has the kind.
func IsBuiltin(gvk schema.GroupVersionKind) bool {
	return Scheme.Recognizes(gvk)
}
