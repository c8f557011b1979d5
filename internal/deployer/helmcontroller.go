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
	return deploymentTag(ctx, client, helmController.namespace, helmController.name, helmController.container, "/helm-controller")
}

// argoRepoServer is the Deployment of Argo CD that renders charts, whose
// image tag is Argo CD's version.
var argoRepoServer = struct{ name, container string }{"argocd-repo-server", "argocd-repo-server"}

// ArgoCDVersion is the image tag of Argo CD's repo server in namespace
// (where Argo CD runs; "" is argocd), which says the Helm it renders
// with: "v3.5.0", or "" when it cannot be read (Argo CD runs in another
// cluster than the one checked, or the checker may not get it).
func ArgoCDVersion(ctx context.Context, client *kube.Client, namespace string) string {
	if namespace == "" {
		namespace = "argocd"
	}
	return deploymentTag(ctx, client, namespace, argoRepoServer.name, argoRepoServer.container, "/argocd")
}

// deploymentTag is the image tag of a Deployment's container, named or
// found by its image; "" when it cannot be read.
func deploymentTag(ctx context.Context, client *kube.Client, namespace, name, container, image string) string {
	ri, err := client.Resource(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, namespace)
	if err != nil {
		return ""
	}
	d, err := ri.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return ""
	}
	containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	for _, c := range containers {
		c, _ := c.(map[string]any)
		img, _ := c["image"].(string)
		if c["name"] == container || strings.Contains(img, image) {
			return imageTag(img)
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
