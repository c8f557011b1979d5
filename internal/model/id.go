package model

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ID is an object's stable identity: what Server-Side Apply addresses.
// The version is not part of it: apps/v1 and apps/v1beta1 Deployments of the
// same name are one object.
type ID struct {
	Group     string `json:"group,omitempty"`
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String gives the form every error and log line starts with, as Flux does:
// "Deployment/default/web", "Namespace/prod", "Widget.example.com/ns/w".
func (id ID) String() string {
	kind := id.Kind
	if id.Group != "" {
		kind += "." + id.Group
	}
	if id.Namespace == "" {
		return fmt.Sprintf("%s/%s", kind, id.Name)
	}
	return fmt.Sprintf("%s/%s/%s", kind, id.Namespace, id.Name)
}

// Less orders IDs for deterministic output: group, kind, namespace, name.
func (id ID) Less(o ID) bool {
	if id.Group != o.Group {
		return id.Group < o.Group
	}
	if id.Kind != o.Kind {
		return id.Kind < o.Kind
	}
	if id.Namespace != o.Namespace {
		return id.Namespace < o.Namespace
	}
	return id.Name < o.Name
}

// IDOf reads the identity of an unstructured object.
func IDOf(u *unstructured.Unstructured) ID {
	gvk := u.GroupVersionKind()
	return ID{Group: gvk.Group, Kind: gvk.Kind, Namespace: u.GetNamespace(), Name: u.GetName()}
}
