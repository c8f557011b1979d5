package model

import "k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

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
}
