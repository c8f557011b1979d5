package snapshot

import (
	"context"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/runtime/schema"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/kube"

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

// captureDocuments reads, for every group-version among the entries, the
// API server's definitions of their kinds. The kinds it could not record
// are returned with the reason: they need a CustomResourceDefinition or
// client-go's schema offline.
func captureDocuments(ctx context.Context, c *kube.Client, entries map[model.ID]*Entry) (map[schema.GroupVersion][]byte, map[schema.GroupVersionKind]error) {
	byGV := map[schema.GroupVersion]map[schema.GroupVersionKind]bool{}
	for _, e := range entries {
		gv, err := schema.ParseGroupVersion(e.APIVersion)
		if err != nil {
			continue
		}
		if byGV[gv] == nil {
			byGV[gv] = map[schema.GroupVersionKind]bool{}
		}
		byGV[gv][gv.WithKind(e.ID.Kind)] = true
	}
	out := map[schema.GroupVersion][]byte{}
	missing := map[schema.GroupVersionKind]error{}
	types := typing.ForCluster(ctx, c.Discovery.OpenAPIV3(), c)
	for gv, kinds := range byGV {
		fail := func(err error) {
			for gvk := range kinds {
				missing[gvk] = err
			}
		}
		doc, err := types.Document(gv)
		if err != nil {
			fail(err)
			continue
		}
		var gvks []schema.GroupVersionKind
		for gvk := range kinds {
			if doc.Has(gvk) {
				gvks = append(gvks, gvk)
			} else {
				missing[gvk] = fmt.Errorf("the API server's schema of %s has no %s", gv, gvk.Kind)
			}
		}
		if len(gvks) == 0 {
			continue
		}
		sort.Slice(gvks, func(i, j int) bool { return gvks[i].Kind < gvks[j].Kind })
		sub, err := doc.Subset(gvks)
		if err != nil {
			fail(err)
			continue
		}
		b, err := canonical(documentFile{SchemaVersion: SchemaVersion, GroupVersion: gv.String(), Components: sub["components"].(map[string]any)})
		if err != nil {
			fail(err)
			continue
		}
		out[gv] = b
	}
	return out, missing
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
