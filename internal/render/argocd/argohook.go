package argocd

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// argoHelmHookTypes are the Helm hooks Argo CD runs as its own
// (gitops-engine's helm hook types); a Helm hook of another kind is a
// hook Argo CD never runs.
var argoHelmHookTypes = map[string]string{
	"pre-install":  "PreSync",
	"pre-upgrade":  "PreSync",
	"post-install": "PostSync",
	"post-upgrade": "PostSync",
}

// argoHook is gitops-engine's hook.IsHook: an object with
// argocd.argoproj.io/hook (other than Skip alone, which argoSkipped leaves
// out), else one with helm.sh/hook other than crd-install, is a hook.
// Argo CD does not apply a hook with the sync's resources: it creates it
// (under its generateName, often) at its phase and deletes it as its
// hook-delete-policy says, so its ownership is not the sync's to predict.
// The answer says which hook it is, "" for none.
func argoHook(u *unstructured.Unstructured) string {
	anns := u.GetAnnotations()
	if v, ok := anns["argocd.argoproj.io/hook"]; ok {
		return "an Argo CD " + strings.TrimSpace(v) + " hook"
	}
	v, ok := anns["helm.sh/hook"]
	if !ok || v == "crd-install" {
		return ""
	}
	var phases []string
	for _, t := range strings.Split(v, ",") {
		if p, ok := argoHelmHookTypes[strings.TrimSpace(t)]; ok {
			phases = append(phases, p)
		}
	}
	if len(phases) == 0 {
		return fmt.Sprintf("a Helm %s hook, which Argo CD never runs", v)
	}
	return fmt.Sprintf("a Helm %s hook, which Argo CD runs as %s", v, strings.Join(phases, ","))
}

// argoHookNotChecked is the reason a hook is not checked.
func argoHookNotChecked(u *unstructured.Unstructured, hook string) string {
	name := u.GetName()
	if name == "" {
		name = u.GetGenerateName() + "*"
	}
	return fmt.Sprintf("%s %s: %s: a sync never applies a hook with its resources (Argo CD creates one at its phase and deletes it as its hook-delete-policy says), so it is not checked", u.GetKind(), name, hook)
}
