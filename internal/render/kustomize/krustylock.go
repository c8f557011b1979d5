package kustomize

import (
	"sync"

	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/kyaml/openapi"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

// krustyLock guards what kustomize keeps for the whole process: the
// OpenAPI schema of kyaml/openapi. kustomize parses its built-in schema
// lazily, in the middle of a build, and that parse writes maps other
// builds read without a lock (kubernetes-sigs/kustomize#5805), so builds
// may share the lock only once the schema has been parsed (primeKrusty). A
// build whose kustomizations set openapi replaces the schema for the
// process, so it always runs alone and the schema is reset after it: the
// next build must not inherit it, whatever order paths are built in.
var krustyLock struct {
	sync.RWMutex
	primed bool // the built-in schema is parsed and in place; under the write lock
}

// primeCostObjects is what parsing kustomize's built-in schema costs,
// counted in objects built (~110 ms against ~1.7 ms an object on the
// machine of docs/benchmarks.md): builds smaller than this gain less from
// running side by side than the parse costs.
const PrimeCostObjects = 100

// PrimeKrusty parses kustomize's built-in schema now, so that later
// builds on it may run side by side.
func PrimeKrusty() {
	krustyLock.Lock()
	defer krustyLock.Unlock()
	if !krustyLock.primed {
		openapi.SchemaForResourceType(kyaml.TypeMeta{})
		krustyLock.primed = true
	}
}

// RunKrusty runs one build under krustyLock: shared once primed, alone
// otherwise or when it brings its own schema.
func RunKrusty(customSchema bool, build func() (resmap.ResMap, error)) (resmap.ResMap, error) {
	if !customSchema {
		krustyLock.RLock()
		if krustyLock.primed {
			defer krustyLock.RUnlock()
			return build()
		}
		krustyLock.RUnlock()
	}
	krustyLock.Lock()
	defer krustyLock.Unlock()
	if !customSchema {
		return build()
	}
	openapi.ResetOpenAPI()
	defer func() {
		openapi.ResetOpenAPI()
		krustyLock.primed = false
	}()
	return build()
}
