package deployer

import (
	"context"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// helmController is where Flux installs helm-controller, whose image tag
// says whether it applies with Helm 4.
var helmController = struct{ namespace, name, container string }{"flux-system", "helm-controller", "manager"}

// HelmControllerVersion is the image tag of the cluster's helm-controller
// ("v1.5.0"), or "" when it cannot be read (no Flux there, or the checker
// may not get Deployments in flux-system): the objects alone decide then.
func HelmControllerVersion(ctx context.Context, client *kube.Client) string {
	ri, err := client.Resource(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, helmController.namespace)
	if err != nil {
		return ""
	}
	d, err := ri.Get(ctx, helmController.name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	for _, c := range containers {
		c, _ := c.(map[string]any)
		image, _ := c["image"].(string)
		if c["name"] == helmController.container || strings.Contains(image, "/helm-controller") {
			return imageTag(image)
		}
	}
	return ""
}

// imageTag is the tag of an image reference, "" without one (a digest
// alone says no version).
func imageTag(image string) string {
	image, _, _ = strings.Cut(image, "@")
	i := strings.LastIndexByte(image, ':')
	if i < 0 || strings.Contains(image[i:], "/") {
		return ""
	}
	return image[i+1:]
}
