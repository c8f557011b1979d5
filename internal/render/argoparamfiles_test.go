package render

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Argo CD Image Updater writes .argocd-source-<app>.yaml beside the
// kustomization; the repo server merges it into the source.
func TestArgoCDSourceParameterFiles(t *testing.T) {
	root := argoRepo(t, "kustomize-overrides")
	writeFile(t, filepath.Join(root, "apps", "guestbook", ".argocd-source-guestbook.yaml"), `kustomize:
  images:
    - gcr.io/heptio-images/ks-guestbook-demo:0.3
  namePrefix: null
`)
	t.Chdir(root)
	reads := source.NewReads()
	objs, err := Render(context.Background(), []string{"apps/guestbook"}, Options{Deployer: argoDeployer(t, root, "application.yaml"), Reads: reads})
	if err != nil {
		t.Fatal(err)
	}
	var names, images []string
	for _, o := range objs {
		names = append(names, o.ID.Name)
		if o.ID.Kind == "Deployment" {
			c, _, _ := unstructured.NestedSlice(o.Object.Object, "spec", "template", "spec", "containers")
			images = append(images, c[0].(map[string]any)["image"].(string))
		}
	}
	if want := []string{"guestbook-ui-v2", "guestbook-ui-v2", "redis-v2"}; !slices.Equal(names, want) {
		t.Errorf("names: %q; want %q (the file removes namePrefix)", names, want)
	}
	if want := []string{"gcr.io/heptio-images/ks-guestbook-demo:0.3"}; !slices.Equal(images, want) {
		t.Errorf("images: %q; want %q (the file's list replaces the Application's)", images, want)
	}
	files, _, _ := reads.Relative(root)
	if !slices.Contains(files, "apps/guestbook/.argocd-source-guestbook.yaml") {
		t.Errorf("the parameter file is not recorded: %q", files)
	}
}
