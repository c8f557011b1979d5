package model

import "fmt"

// Controller names a controller that is set up to manage a field the deploy
// sends (docs/history.md "Known controllers: `fight`").
type Controller struct {
	// Name is how messages call it: "HorizontalPodAutoscaler",
	// "cert-manager cainjector".
	Name string `json:"name"`
	// Object is the object that sets the controller up (the
	// HorizontalPodAutoscaler); nil when the managed object itself does
	// (an annotation on it).
	Object *ID `json:"object,omitempty"`
	// Manager is the field manager the controller writes with, when known.
	Manager string `json:"manager,omitempty"`
}

// String is "HorizontalPodAutoscaler shop/web", or the name alone.
func (c Controller) String() string {
	if c.Object == nil {
		return c.Name
	}
	if c.Object.Namespace == "" {
		return c.Name + " " + c.Object.Name
	}
	return c.Name + " " + c.Object.Namespace + "/" + c.Object.Name
}

// History is a finding's record in the environment's recorded deploys:
// Manager changed the path before Seen of the last Deploys deploys, the
// first of them at Since (RFC 3339).
type History struct {
	Seen    int    `json:"seen"`
	Deploys int    `json:"deploys"`
	Since   string `json:"since"`
	Manager string `json:"manager,omitempty"`
}

// Sentence is the escalation as comment and text say it:
// "kube-controller-manager changed it before 4 of the last 5 deploys".
func (h History) Sentence() string {
	who := h.Manager
	if who == "" {
		who = "another manager"
	}
	return fmt.Sprintf("%s changed it before %d of the last %d deploys", who, h.Seen, h.Deploys)
}
