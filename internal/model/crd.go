package model

import "k8s.io/apimachinery/pkg/runtime/schema"

// CRDGroupKind is what a CustomResourceDefinition is: render, predict,
// typing, snapshot and check each treat one specially (a kind that other
// objects of the same render wait for, a schema source).
var CRDGroupKind = schema.GroupKind{Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition"}

// CRDVersionKind is the served version the tool reads CRDs in.
var CRDVersionKind = CRDGroupKind.WithVersion("v1")

// IsCRD tells whether a group and kind are a CustomResourceDefinition's,
// whatever the version.
func IsCRD(gk schema.GroupKind) bool { return gk == CRDGroupKind }
