package model

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// Object is one rendered object: what the deploy will apply, with ignored
// fields already removed, and where it came from.
type Object struct {
	ID     ID
	Object *unstructured.Unstructured
	// Source is the file the object came from, relative to the working
	// directory (for annotations on the pull request); empty when unknown.
	Source string
	// Line is the 1-based line of the object's document in Source; 0 when unknown.
	Line int
	// Notes are caveats about the object that do not fail the check, such
	// as a scope guessed for want of anything that knows it.
	Notes []string
	// HiddenValues are values the render put into the object from outside
	// the repository's manifests that must never be shown (a Secret's
	// values a controller substituted into any kind of object, as Flux's
	// postBuild.substituteFrom does, or a chart's lookup). A check adds
	// them to its run's set (Redaction.Hidden) and hides them wherever they
	// are; render's output prints them only with --show-secrets. Objects
	// of one release or Kustomization share one set; nil: none.
	HiddenValues *Hidden
	// PatchedAt is where a patch that is not the object's own document
	// set the field at a path ("file:line", an overlay's patch of a base's
	// object), "" where Source sets it; nil: nothing patched the object.
	// A remedy names the file to edit, and for a kustomized field that is
	// the overlay's patch, not the base.
	PatchedAt func(fieldpath.Path) string
	// FromSecret are the fields whose value depends on a Secret value that
	// stood in the render as a placeholder (StandIns): their ownership is
	// classified, their value is not compared. nil: none.
	FromSecret []SecretField
}

// SecretField is a field whose value a render made from Secret values it
// saw only as placeholders; Keys are the keys it was made from, as far as
// the value shows them (a template may transform a placeholder beyond
// recognition: then every key the render read).
type SecretField struct {
	Path fieldpath.Path
	Keys []SecretKey
}

// SourceOf is the file that sets the field at p: the patch that set it,
// else the object's own file ("" when unknown).
func (o Object) SourceOf(p fieldpath.Path) string {
	if o.PatchedAt != nil {
		if at := o.PatchedAt(p); at != "" {
			return at
		}
	}
	return o.Source
}
