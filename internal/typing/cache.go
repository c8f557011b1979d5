package typing

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"k8s.io/client-go/openapi"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Kind is how one kind in one version is typed.
type Kind struct {
	Types managedfields.TypeConverter
	// Deduced says why the structure is deduced from the values (maps by
	// key, lists whole, where the API server may track items one by one);
	// empty when a schema types the kind.
	Deduced string
	// NotServed is set when the API server does not serve the kind's
	// group-version (cluster engine): its objects cannot exist yet.
	NotServed bool
}

// Options say where a Cache finds schemas.
type Options struct {
	// Server is the API server's OpenAPI v3 discovery
	// (kube.Client.OpenAPIV3(Ctx)): the cluster engine's source, ahead of
	// every other. Its reads must end when Ctx ends: the cache waits for
	// them. Ctx is required with Server: its reads run under it.
	Server openapi.Client
	Ctx    context.Context
	// ServerCRD reads the CustomResourceDefinition of a kind the API
	// server serves, for a kind its OpenAPI does not publish yet (it
	// publishes a new CRD's schema some seconds after serving it).
	ServerCRD func(schema.GroupVersionKind) (*unstructured.Unstructured, error)
	// Serves tells whether the API server serves a kind (discovery); nil:
	// every kind whose group-version the OpenAPI publishes.
	Serves func(schema.GroupVersionKind) bool
	// RenderCRDs type their kinds offline ahead of every other source:
	// the deploy installs them before what they define.
	RenderCRDs []*unstructured.Unstructured
	// Recorded are the documents a snapshot recorded, by group-version.
	Recorded map[schema.GroupVersion][]byte
	// CRDs type custom kinds offline that Recorded does not have (older
	// snapshots recorded CRDs only).
	CRDs []*unstructured.Unstructured
}

// Cache types kinds for one run: each group-version's document is read
// once, each kind's converter built once, and all of it is safe for
// concurrent use.
type Cache struct {
	server     *server
	serverCRD  func(schema.GroupVersionKind) (*unstructured.Unstructured, error)
	servesKind func(schema.GroupVersionKind) bool
	renderCRDs crdKinds
	crds       crdKinds
	recorded   map[schema.GroupVersion][]byte

	docs   parallel.Keyed[schema.GroupVersion, *Document]
	kinds  parallel.Keyed[schema.GroupVersionKind, Kind]
	served parallel.Keyed[schema.GroupVersionKind, bool]
}

// New returns an empty cache.
func New(o Options) *Cache {
	c := &Cache{
		renderCRDs: crdKinds{},
		crds:       crdKinds{},
		recorded:   o.Recorded,
		serverCRD:  o.ServerCRD,
		servesKind: o.Serves,
	}
	if o.Server != nil {
		c.server = &server{ctx: o.Ctx, client: o.Server}
	}
	for _, crd := range o.CRDs {
		if crd != nil {
			c.crds.addCRD(crd)
		}
	}
	for _, crd := range o.RenderCRDs {
		if crd != nil {
			c.renderCRDs.addCRD(crd)
		}
	}
	return c
}

// Kind returns how gvk is typed; it never fails: without a schema the
// structure is deduced, and Kind.Deduced says why.
func (c *Cache) Kind(gvk schema.GroupVersionKind) Kind {
	// Never cancelled: a kind is built from what is read already.
	k, _ := c.kinds.Get(context.Background(), gvk, func(context.Context) (Kind, error) { return c.build(gvk), nil })
	return k
}

// Document returns a group-version's document: the API server's, or the
// snapshot's record offline. An error means there is none (or it could not
// be read).
func (c *Cache) Document(gv schema.GroupVersion) (*Document, error) {
	// The server's reads end with the cache's context, not a caller's.
	return c.docs.Get(context.Background(), gv, func(context.Context) (*Document, error) {
		if c.server != nil {
			return c.server.document(gv)
		}
		b, ok := c.recorded[gv]
		if !ok {
			return nil, fmt.Errorf("the snapshot recorded no schema of %s", gv)
		}
		return ParseDocument(b)
	})
}

func (c *Cache) build(gvk schema.GroupVersionKind) Kind {
	if c.server != nil {
		k, why := c.fromDocument(gvk, "the API server")
		if why == "" {
			return k
		}
		notServed := !c.serves(gvk)
		if IsBuiltin(gvk) {
			return Kind{Types: Builtin(), NotServed: notServed}
		}
		if !notServed && c.serverCRD != nil {
			if crd, err := c.serverCRD(gvk); err == nil && crd != nil {
				kinds := crdKinds{}
				kinds.addCRD(crd)
				if k, ok := fromCRD(kinds, gvk); ok {
					return k
				}
			}
		}
		if k, ok := fromCRD(c.renderCRDs, gvk); ok {
			k.NotServed = notServed
			return k
		}
		return Kind{Types: Deduced(), Deduced: why, NotServed: notServed}
	}
	if k, ok := fromCRD(c.renderCRDs, gvk); ok {
		return k
	}
	if _, ok := c.recorded[gvk.GroupVersion()]; ok {
		k, why := c.fromDocument(gvk, "the snapshot")
		if why == "" {
			return k
		}
		if _, ok := c.crds[gvk]; !ok && !IsBuiltin(gvk) {
			return Kind{Types: Deduced(), Deduced: why}
		}
	}
	if k, ok := fromCRD(c.crds, gvk); ok {
		return k
	}
	if IsBuiltin(gvk) {
		return Kind{Types: Builtin()}
	}
	why := fmt.Sprintf("no CustomResourceDefinition for %s in the render or the snapshot", gvk)
	if isCRD(gvk) {
		why = "the snapshot recorded no schema of CustomResourceDefinition objects themselves (client-go carries none)"
	}
	return Kind{Types: Deduced(), Deduced: why}
}

func (c *Cache) fromDocument(gvk schema.GroupVersionKind, who string) (Kind, string) {
	doc, err := c.Document(gvk.GroupVersion())
	if err != nil {
		return Kind{}, fmt.Sprintf("%s has no schema of %s (%v)", who, gvk.GroupVersion(), err)
	}
	if !doc.Has(gvk) {
		return Kind{}, fmt.Sprintf("%s's schema of %s has no %s", who, gvk.GroupVersion(), gvk.Kind)
	}
	tc, err := doc.Converter(gvk)
	if err != nil {
		return Kind{}, fmt.Sprintf("%s's schema of %s is unusable (%v)", who, gvk, err)
	}
	return Kind{Types: tc}, ""
}

func fromCRD(crds crdKinds, gvk schema.GroupVersionKind) (Kind, bool) {
	ck, ok := crds[gvk]
	if !ok {
		return Kind{}, false
	}
	tc, why := ck.types(gvk)
	if tc == nil {
		return Kind{Types: Deduced(), Deduced: why}, true
	}
	return Kind{Types: tc}, true
}

// serves tells whether the API server serves gvk: discovery's answer when
// given, else whether its OpenAPI publishes the group-version. Asked once
// per kind and run.
func (c *Cache) serves(gvk schema.GroupVersionKind) bool {
	ok, _ := c.served.Get(context.Background(), gvk, func(context.Context) (bool, error) {
		if c.servesKind != nil {
			return c.servesKind(gvk), nil
		}
		_, err := c.Document(gvk.GroupVersion())
		return !errors.Is(err, ErrNotPublished), nil
	})
	return ok
}

func isCRD(gvk schema.GroupVersionKind) bool {
	return model.IsCRD(gvk.GroupKind())
}

// TypesOf returns a kind's type converter in any apiVersion, as
// ownership.Input.TypesOf wants it: an error when the cluster does not
// serve that version (the cluster engine knows; offline every version is
// taken to be served).
func (c *Cache) TypesOf(kind string) func(apiVersion string) (managedfields.TypeConverter, error) {
	return func(apiVersion string) (managedfields.TypeConverter, error) {
		gv, err := schema.ParseGroupVersion(apiVersion)
		if err != nil {
			return nil, err
		}
		gvk := gv.WithKind(kind)
		if c.server != nil && !c.serves(gvk) {
			return nil, fmt.Errorf("the cluster no longer serves %s", gv)
		}
		return c.Kind(gvk).Types, nil
	}
}
