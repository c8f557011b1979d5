package snapshot

import (
	"context"
	"fmt"
	"path"
	"runtime"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/parallel"

	"github.com/ownership-check/ownership-check/internal/typing"
)

// The API server's schemas, for the offline engine, which has no server to
// ask: for each group-version the snapshot holds objects of, the
// definitions of its OpenAPI v3 document that those kinds need
// (descriptions left out),
//
//	<environment>/openapi/<group>/<version>.json
//
// holding {"schemaVersion": 1, "groupVersion": "apps/v1", "components":
// {"schemas": {...}}}. With them both engines type every kind (built-in,
// custom or aggregated) alike. Readers that predate them ignore the folder.
const openapiDir = "openapi"

// DocumentPath is the file of a group-version's schemas, relative to the
// environment's folder.
func DocumentPath(gv schema.GroupVersion) string {
	group := gv.Group
	if group == "" {
		group = coreGroup
	}
	return path.Join(openapiDir, escape(group), escape(gv.Version)+".json")
}

type documentFile struct {
	SchemaVersion int            `json:"schemaVersion"`
	GroupVersion  string         `json:"groupVersion"`
	Components    map[string]any `json:"components"`
}

// captureDocuments reads, for every group-version of the kinds, the API
// server's definitions of those kinds, group-versions side by side. The
// kinds it could not record are returned with the reason: they need a
// CustomResourceDefinition or client-go's schema offline.
func captureDocuments(ctx context.Context, c *kube.Client, types *typing.Cache, kinds []schema.GroupVersionKind) (map[schema.GroupVersion][]byte, map[schema.GroupVersionKind]error) {
	byGV := map[schema.GroupVersion][]schema.GroupVersionKind{}
	var gvs []schema.GroupVersion
	for _, gvk := range kinds {
		gv := gvk.GroupVersion()
		if _, ok := byGV[gv]; !ok {
			gvs = append(gvs, gv)
		}
		byGV[gv] = append(byGV[gv], gvk)
	}
	if types == nil {
		types = typing.ForCluster(ctx, c.OpenAPIV3(ctx), c)
	}
	type result struct {
		doc     []byte
		missing map[schema.GroupVersionKind]error
	}
	results := make([]result, len(gvs))
	parallel.For(len(gvs), runtime.GOMAXPROCS(0), func(i int) {
		results[i].doc, results[i].missing = captureDocument(types, gvs[i], byGV[gvs[i]])
	})
	out := map[schema.GroupVersion][]byte{}
	missing := map[schema.GroupVersionKind]error{}
	for i, r := range results {
		if r.doc != nil {
			out[gvs[i]] = r.doc
		}
		for gvk, err := range r.missing {
			missing[gvk] = err
		}
	}
	return out, missing
}

// captureDocument is one group-version's record, and the kinds it lacks.
func captureDocument(types *typing.Cache, gv schema.GroupVersion, kinds []schema.GroupVersionKind) ([]byte, map[schema.GroupVersionKind]error) {
	missing := map[schema.GroupVersionKind]error{}
	fail := func(err error) ([]byte, map[schema.GroupVersionKind]error) {
		for _, gvk := range kinds {
			missing[gvk] = err
		}
		return nil, missing
	}
	doc, err := types.Document(gv)
	if err != nil {
		return fail(err)
	}
	var have []schema.GroupVersionKind
	for _, gvk := range kinds {
		if doc.Has(gvk) {
			have = append(have, gvk)
		} else {
			missing[gvk] = fmt.Errorf("the API server's schema of %s has no %s", gv, gvk.Kind)
		}
	}
	if len(have) == 0 {
		return nil, missing
	}
	sort.Slice(have, func(i, j int) bool { return have[i].Kind < have[j].Kind })
	sub, err := doc.Subset(have)
	if err != nil {
		return fail(err)
	}
	b, err := canonical(documentFile{SchemaVersion: SchemaVersion, GroupVersion: gv.String(), Components: sub["components"].(map[string]any)})
	if err != nil {
		return fail(err)
	}
	return b, missing
}

// encodeDocuments adds the schema documents to an environment's files.
func encodeDocuments(snap *Snapshot, files map[string][]byte) {
	for gv, b := range snap.Documents {
		if len(b) > 0 {
			files[DocumentPath(gv)] = b
		}
	}
}

// decodeDocuments reads the schema documents among an environment's files;
// they stay bytes until the offline engine needs a kind of them.
func decodeDocuments(files map[string][]byte) (map[schema.GroupVersion][]byte, error) {
	out := map[schema.GroupVersion][]byte{}
	for p, b := range files {
		if !strings.HasPrefix(p, openapiDir+"/") {
			continue
		}
		if err := checkVersion(b); err != nil {
			return nil, &FileError{File: p, Err: err}
		}
		var f struct {
			GroupVersion string `json:"groupVersion"`
		}
		if err := utiljson.Unmarshal(b, &f); err != nil {
			return nil, &FileError{File: p, Err: err}
		}
		gv, err := schema.ParseGroupVersion(f.GroupVersion)
		if err != nil || f.GroupVersion == "" || DocumentPath(gv) != p {
			return nil, &FileError{File: p, Err: fmt.Errorf("does not hold the schemas of %s", strings.TrimSuffix(strings.TrimPrefix(p, openapiDir+"/"), ".json"))}
		}
		out[gv] = b
	}
	return out, nil
}
