package check_test

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
)

func parseGV(apiVersion string) (schema.GroupVersion, error) {
	return schema.ParseGroupVersion(apiVersion)
}

func typesPatch(t string) types.PatchType { return types.PatchType(t) }
