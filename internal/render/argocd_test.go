package render

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/argocd"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// The fixtures under testdata/argocd are repositories: each application*.yaml
// is an Argo CD Application whose source paths are relative to its
// fixture's top, want*.yaml is what Argo CD applies for it, object for
// object, and an overlay*/ directory is the same overrides written by hand
// as a kustomize overlay.

// argoRepo copies a fixture into a temporary repository, so that the
// tests can see the render writes nothing into it.
func argoRepo(t *testing.T, fixture string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", "argocd", fixture))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(root, rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func argoDeployer(t *testing.T, root, file string) *delivery.Deployer {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, file))
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	return &delivery.Deployer{Controller: delivery.ControllerArgoCD, Object: obj, File: file}
}

// manifestsOf is objects as a YAML stream, in render's order.
func manifestsOf(t *testing.T, objs []model.Object) []byte {
	t.Helper()
	var b bytes.Buffer
	for i, o := range objs {
		if i > 0 {
			b.WriteString("---\n")
		}
		y, err := yaml.Marshal(o.Object.Object)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(y)
	}
	return b.Bytes()
}

func TestArgoCDRendersAsArgoCD(t *testing.T) {
	cases := []struct {
		name, fixture, app, path string
		want                     string // want file in the fixture
		overlay                  string // the overrides as a hand-written overlay
		notRendered              string
	}{
		{name: "kustomize overrides", fixture: "kustomize-overrides", app: "application.yaml", path: "apps/guestbook", want: "want.yaml", overlay: "overlay"},
		{name: "labels without selector, annotations substituted", fixture: "kustomize-overrides", app: "application-labels.yaml", path: "apps/guestbook", want: "want-labels.yaml", overlay: "overlay-labels"},
		{name: "components", fixture: "kustomize-overrides", app: "application-components.yaml", path: "apps/with-components", want: "want-components.yaml", overlay: "overlay-components"},
		{name: "the revision only a sync knows", fixture: "kustomize-overrides", app: "application-revision.yaml", path: "apps/guestbook", notRendered: "$ARGOCD_APP_REVISION_SHORT, which Argo CD sets only when it syncs"},
		{name: "directory", fixture: "directory", app: "application.yaml", path: "manifests", want: "want.yaml"},
		{name: "label tracking", fixture: "directory", app: "application-label.yaml", path: "manifests", want: "want-label.yaml"},
		{name: "annotation and label tracking", fixture: "directory", app: "application-both.yaml", path: "manifests", want: "want-both.yaml"},
		{name: "recurse, include and exclude", fixture: "directory", app: "application-recurse.yaml", path: "tree", want: "want-recurse.yaml"},
		{name: "multiple sources", fixture: "directory", app: "application-multi.yaml", path: "multi/b", want: "want-multi.yaml"},
		{name: "helm", fixture: "directory", app: "application-helm.yaml", path: "chart", want: "want-helm.yaml"},
		{name: "plugin", fixture: "directory", app: "application-plugin.yaml", path: "manifests", notRendered: "plugin source"},
		{name: "jsonnet with tlas, extVars and libs", fixture: "jsonnet", app: "application.yaml", path: "apps/guestbook", want: "want.yaml"},
		{name: "jsonnet with the revision only a sync knows", fixture: "jsonnet", app: "application-revision.yaml", path: "apps/guestbook", notRendered: "$ARGOCD_APP_REVISION_SHORT, which Argo CD sets only when it syncs"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantFile, err := filepath.Abs(filepath.Join("testdata", "argocd", tc.fixture, tc.want))
			if err != nil {
				t.Fatal(err)
			}
			root := argoRepo(t, tc.fixture)
			t.Chdir(root)
			d := argoDeployer(t, root, tc.app)
			r, err := RenderAll(context.Background(), []string{tc.path}, Options{Deployer: d})
			if err != nil {
				t.Fatal(err)
			}
			if tc.notRendered != "" {
				if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, tc.notRendered) || r.NotRendered[0].Source != tc.app {
					t.Fatalf("not rendered: %v; want one from %s: %q", r.NotRendered, tc.app, tc.notRendered)
				}
				if len(r.Objects) != 0 {
					t.Errorf("objects of a source not rendered: %d", len(r.Objects))
				}
				return
			}
			if len(r.NotRendered) > 0 {
				t.Fatalf("not rendered: %v", r.NotRendered)
			}
			checkArgoWant(t, wantFile, manifestsOf(t, r.Objects))
			if tc.overlay != "" {
				checkOverlay(t, r.Objects, tc.overlay, d)
			}
		})
	}
}

// checkArgoWant compares with a want file (refreshed by -update, then read
// object by object against Argo CD's behaviour before it is committed).
func checkArgoWant(t *testing.T, file string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(file, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("differs from %s:\n--- got:\n%s", file, got)
	}
}

// checkOverlay holds the overrides to kustomize's own semantics: plain
// kustomize builds the hand-written overlay into the same objects, less
// Argo CD's tracking annotation (the destination namespace is the
// render's default namespace).
func checkOverlay(t *testing.T, got []model.Object, overlay string, d *delivery.Deployer) {
	t.Helper()
	checkOverlayWith(t, got, overlay, d, nil)
}

// checkOverlayWith is checkOverlay with kustomize built as cfg says.
func checkOverlayWith(t *testing.T, got []model.Object, overlay string, d *delivery.Deployer, cfg *config.Config) {
	t.Helper()
	app, err := argocd.ParseApplication(d)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Render(context.Background(), []string{overlay}, Options{Namespace: app.Spec.Destination.Namespace, Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	stripped := make([]model.Object, len(got))
	for i, o := range got {
		u := o.Object.DeepCopy()
		ann := u.GetAnnotations()
		delete(ann, argocd.TrackingIDAnnotation)
		if len(ann) == 0 {
			ann = nil
		}
		u.SetAnnotations(ann)
		stripped[i] = model.Object{ID: o.ID, Object: u}
	}
	if g, w := manifestsOf(t, stripped), manifestsOf(t, want); !bytes.Equal(g, w) {
		t.Errorf("the overrides differ from kustomize's build of %s:\n--- render:\n%s\n--- kustomize:\n%s", overlay, g, w)
	}
}

// treeHash is every file's path, mode and content below root.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v\n", path, info.Mode())
		if d.Type().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestArgoCDWritesNothingAndRecordsEveryRead(t *testing.T) {
	cases := []struct {
		fixture, app, path string
		files, dirs        []string
	}{
		{
			fixture: "kustomize-overrides", app: "application.yaml", path: "apps/guestbook",
			files: []string{"apps/guestbook/kustomization.yaml", "base/guestbook/deployment.yaml", "base/guestbook/kustomization.yaml", "base/guestbook/redis.yaml", "base/guestbook/service.yaml"},
			dirs:  []string{"apps/guestbook", "base/guestbook"},
		},
		{
			fixture: "kustomize-overrides", app: "application-components.yaml", path: "apps/with-components",
			files: []string{"apps/with-components/kustomization.yaml", "base/guestbook/deployment.yaml", "base/guestbook/kustomization.yaml", "base/guestbook/redis.yaml", "base/guestbook/service.yaml",
				"components/ha/kustomization.yaml", "components/ha/pdb.yaml", "components/monitoring/kustomization.yaml", "components/monitoring/servicemonitor.yaml"},
			dirs: []string{"apps/with-components", "base/guestbook", "components/ha", "components/monitoring"},
		},
		{
			fixture: "directory", app: "application.yaml", path: "manifests",
			files: []string{"manifests/crd.yaml", "manifests/deployment.yaml", "manifests/list.yaml", "manifests/rbac.yaml", "manifests/service.json", "manifests/values.yaml"},
			dirs:  []string{"manifests"},
		},
		{
			fixture: "jsonnet", app: "application.yaml", path: "apps/guestbook",
			files: []string{"apps/guestbook/config.jsonnet", "apps/guestbook/main.jsonnet", "apps/guestbook/params.libsonnet", "vendor/k/k.libsonnet", "vendor/k/note.txt"},
			// Where an import was looked for first and is not.
			dirs: []string{"apps/guestbook"},
		},
		{
			fixture: "directory", app: "application-recurse.yaml", path: "tree",
			files: []string{"tree/a.yaml", "tree/b.yml", "tree/sub/d.yaml", "tree/sub/deeper/e.yaml"},
			dirs:  []string{"tree", "tree/legacy", "tree/sub", "tree/sub/deeper"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.app, func(t *testing.T) {
			root := argoRepo(t, tc.fixture)
			t.Chdir(root)
			before := treeHash(t, root)
			reads := source.NewReads()
			if _, err := Render(context.Background(), []string{tc.path}, Options{Deployer: argoDeployer(t, root, tc.app), Reads: reads}); err != nil {
				t.Fatal(err)
			}
			if after := treeHash(t, root); after != before {
				t.Error("the render changed the repository")
			}
			files, dirs, outside := reads.Relative(root)
			if !slices.Equal(files, tc.files) || outside != 0 {
				t.Errorf("files read: %q (%d outside); want %q", files, outside, tc.files)
			}
			if !slices.Equal(dirs, tc.dirs) {
				t.Errorf("directories read: %q; want %q", dirs, tc.dirs)
			}
		})
	}
}

func TestArgoCDRefusesWhatArgoCDRefuses(t *testing.T) {
	cases := []struct {
		name, path, source, want string
	}{
		{name: "a path that is no source of the Application", path: "multi/a", source: "path: manifests", want: "no source of Application app has this path"},
		{name: "two kinds of source", path: "manifests", source: "path: manifests\n    directory: {recurse: true}\n    kustomize: {namePrefix: a-}", want: "multiple application sources defined: Kustomize,Directory"},
		{name: "kustomize overrides and no kustomization", path: "manifests", source: "path: manifests\n    kustomize: {namePrefix: a-}", want: "Missing kustomization file"},
		{name: "a replica count that is no number", path: "manifests", source: "path: manifests\n    kustomize: {replicas: [{name: web, count: many}]}", want: "expected integer value for count"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := argoRepo(t, "directory")
			writeFile(t, filepath.Join(root, "app.yaml"), `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: app
spec:
  source:
    repoURL: https://github.com/example/gitops.git
    `+tc.source+`
  destination:
    namespace: web
`)
			t.Chdir(root)
			_, err := RenderAll(context.Background(), []string{tc.path}, Options{Deployer: argoDeployer(t, root, "app.yaml")})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v; want %q", err, tc.want)
			}
		})
	}
}

func TestArgoCDRowClaimsOnlyArgoCDRenders(t *testing.T) {
	p := source.Path{Dir: true}
	i := slices.IndexFunc(sourceTable, func(r sourceRow) bool { return r.name == "argocd" })
	if i < 0 {
		t.Fatal("no argocd row")
	}
	row := sourceTable[i]
	if !row.claims(p, &delivery.Deployer{Controller: delivery.ControllerArgoCD}) {
		t.Fatalf("the argocd row does not claim an Argo CD render")
	}
	for _, d := range []*delivery.Deployer{nil, {Controller: delivery.ControllerFlux}} {
		if row.claims(p, d) {
			t.Errorf("the argocd row claims a render for %+v", d)
		}
	}
}
