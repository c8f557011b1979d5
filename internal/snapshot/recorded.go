package snapshot

import (
	"context"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// RecordedSchemas are the schemas the targets of one run recorded on one
// cluster, by the set of kinds they were recorded for: the targets of a
// monorepo mostly hold the same kinds, and each would otherwise cut and
// encode the same documents and GET the same CustomResourceDefinitions.
// Shared results are only read.
type RecordedSchemas struct {
	set parallel.Keyed[string, schemasRead]
}

// schemasRead is CaptureSchemas's answer.
type schemasRead struct {
	docs    map[schema.GroupVersion][]byte
	crds    map[schema.GroupKind]*unstructured.Unstructured
	skipped []error
}

// NewRecordedSchemas starts the recorded schemas of one cluster.
func NewRecordedSchemas() *RecordedSchemas {
	return &RecordedSchemas{}
}

// capture is CaptureSchemas, once per set of kinds when rs is set. A
// capture whose context ended is not kept: another target's may not have.
func (rs *RecordedSchemas) capture(ctx context.Context, c *kube.Client, types *typing.Cache, kinds []schema.GroupVersionKind) schemasRead {
	read := func() schemasRead {
		var r schemasRead
		r.docs, r.crds, r.skipped = CaptureSchemas(ctx, c, types, kinds)
		return r
	}
	if rs == nil {
		return read()
	}
	names := make([]string, len(kinds))
	for i, gvk := range kinds {
		names[i] = gvk.String()
	}
	sort.Strings(names)
	key := strings.Join(names, "\n")
	// The error only tells Keyed not to keep a capture cut short.
	r, _ := rs.set.Get(ctx, key, func(ctx context.Context) (schemasRead, error) { return read(), ctx.Err() })
	return r
}
