//lint:file-ignore SA1019 commonLabels is deprecated, but kustomize edit add label writes it, and Argo CD runs that

package argocd

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/types"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// The cases of kustomize v5.6's own tests of `kustomize edit set image`
// (commands/edit/set/setimage_test.go), which Argo CD runs.
func TestSetImagesAsKustomizeEdit(t *testing.T) {
	const digest = "sha256:24a0c4b4a4c0eb97a1aabb8e29f18e917d05abfe1b7a7c07857230879ce7d3d3"
	cases := []struct {
		name     string
		existing []types.Image
		args     []string
		want     []types.Image
	}{
		{name: "new name and tag", args: []string{"image1=my-image1:my-tag"}, want: []types.Image{{Name: "image1", NewName: "my-image1", NewTag: "my-tag"}}},
		{name: "numeric tag", args: []string{"image1=my-image1:1234"}, want: []types.Image{{Name: "image1", NewName: "my-image1", NewTag: "1234"}}},
		{name: "new name and digest", args: []string{"image1=my-image1@" + digest}, want: []types.Image{{Name: "image1", NewName: "my-image1", Digest: digest}}},
		{name: "tag", args: []string{"image1:my-tag"}, want: []types.Image{{Name: "image1", NewTag: "my-tag"}}},
		{name: "digest", args: []string{"image1@" + digest}, want: []types.Image{{Name: "image1", Digest: digest}}},
		{name: "tag and digest", args: []string{"my-image1:my-tag@" + digest}, want: []types.Image{{Name: "my-image1", NewTag: "my-tag", Digest: digest}}},
		{name: "everything", args: []string{"image1=my-image1:my-tag@" + digest}, want: []types.Image{{Name: "image1", NewName: "my-image1", NewTag: "my-tag", Digest: digest}}},
		{name: "registry with a port", args: []string{"ngnix=localhost:5000/my-project/ngnix:dev-01"}, want: []types.Image{{Name: "ngnix", NewName: "localhost:5000/my-project/ngnix", NewTag: "dev-01"}}},
		{
			name:     "replaces an image of the same name, keeps the others, sorted",
			existing: []types.Image{{Name: "image2", NewName: "my-image2", NewTag: "my-tag2"}, {Name: "image1", NewName: "my-image1", NewTag: "my-tag"}},
			args:     []string{"image1=foo.bar.foo:8800/foo/image1:foo-bar"},
			want:     []types.Image{{Name: "image1", NewName: "foo.bar.foo:8800/foo/image1", NewTag: "foo-bar"}, {Name: "image2", NewName: "my-image2", NewTag: "my-tag2"}},
		},
		{
			name:     "an asterisk keeps what the kustomization says",
			existing: []types.Image{{Name: "image1", NewName: "my-image1", NewTag: "my-tag"}},
			args:     []string{"image1=*:v2", "image2=new:*"},
			want:     []types.Image{{Name: "image1", NewName: "my-image1", NewTag: "v2"}, {Name: "image2", NewName: "new"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			k := &types.Kustomization{Images: tc.existing}
			if err := setImages(k, tc.args); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(k.Images, tc.want) {
				t.Errorf("images: %+v; want %+v", k.Images, tc.want)
			}
		})
	}
	if err := setImages(&types.Kustomization{}, []string{"alpine"}); err == nil {
		t.Error("an image with nothing to set: no error; kustomize refuses it")
	}
}

func TestSetReplicasMergesByName(t *testing.T) {
	k := &types.Kustomization{Replicas: []types.Replica{{Name: "web", Count: 1}, {Name: "api", Count: 2}}}
	if err := setReplicas(k, []string{"web=3", "worker=4"}); err != nil {
		t.Fatal(err)
	}
	want := []types.Replica{{Name: "api", Count: 2}, {Name: "web", Count: 3}, {Name: "worker", Count: 4}}
	if !reflect.DeepEqual(k.Replicas, want) {
		t.Errorf("replicas: %+v; want %+v", k.Replicas, want)
	}
}

func TestAddLabelsAsKustomizeEdit(t *testing.T) {
	t.Run("commonLabels refuses a label already there unless forced", func(t *testing.T) {
		k := &types.Kustomization{CommonLabels: map[string]string{"team": "a"}}
		if err := (metadataEdit{Kind: "label"}).AddLabels(k, []string{"team:b"}); err == nil || !strings.Contains(err.Error(), "already in kustomization file") {
			t.Errorf("err = %v", err)
		}
		if err := (metadataEdit{Kind: "label", Force: true}).AddLabels(k, []string{"team:b", `tier:"web"`}); err != nil {
			t.Fatal(err)
		}
		if want := map[string]string{"team": "b", "tier": "web"}; !reflect.DeepEqual(k.CommonLabels, want) {
			t.Errorf("commonLabels: %v; want %v (quotes around a value removed)", k.CommonLabels, want)
		}
	})
	t.Run("without selector: one label, a new labels entry", func(t *testing.T) {
		k := &types.Kustomization{}
		if err := (metadataEdit{Kind: "label", WithoutSelector: true, IncludeTemplates: true}).AddLabels(k, []string{"team:web"}); err != nil {
			t.Fatal(err)
		}
		want := []types.Label{{Pairs: map[string]string{"team": "web"}, IncludeTemplates: true}}
		if !reflect.DeepEqual(k.Labels, want) {
			t.Errorf("labels: %+v; want %+v", k.Labels, want)
		}
	})
	t.Run("without selector: two labels and no entry fail as in kustomize 5.6, unless forced", func(t *testing.T) {
		k := &types.Kustomization{}
		if err := (metadataEdit{Kind: "label", WithoutSelector: true}).AddLabels(k, []string{"a:1", "b:2"}); err == nil {
			t.Error("no error")
		}
		k = &types.Kustomization{}
		if err := (metadataEdit{Kind: "label", WithoutSelector: true, Force: true}).AddLabels(k, []string{"a:1", "b:2"}); err != nil {
			t.Fatal(err)
		}
		if want := []types.Label{{Pairs: map[string]string{"a": "1", "b": "2"}}}; !reflect.DeepEqual(k.Labels, want) {
			t.Errorf("labels: %+v; want %+v", k.Labels, want)
		}
	})
	t.Run("include templates needs without selector", func(t *testing.T) {
		if err := (metadataEdit{Kind: "label", IncludeTemplates: true}).AddLabels(&types.Kustomization{}, []string{"a:1"}); err == nil {
			t.Error("no error")
		}
	})
}

func TestComponentsAsKustomizeEdit(t *testing.T) {
	root, err := filepath.Abs("../testdata/argocd/kustomize-overrides")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(root, "apps", "with-components")
	var read []string
	record := func(d string) { read = append(read, d) }
	files, err := repofs.Open(root, ".")
	if err != nil {
		t.Fatal(err)
	}
	defer files.Close()
	edit := editFiles{FS: files, Read: record}
	// ignoreMissingComponents joins securely: ../../components/ha is
	// looked for below the source's directory, where it is not.
	if got := existingComponents(dir, []string{"../../components/ha", "missing"}, edit); len(got) != 0 {
		t.Errorf("existing: %q; want none", got)
	}
	if err := addComponents(&types.Kustomization{}, dir, nil, edit); err == nil {
		t.Error("no component left: no error; kustomize edit add component refuses no argument")
	}
	k := &types.Kustomization{Components: []string{"../../components/ha"}}
	if err := addComponents(k, dir, []string{"../../components/*"}, edit); err != nil {
		t.Fatal(err)
	}
	if want := []string{"../../components/ha", "../../components/monitoring"}; !slices.Equal(k.Components, want) {
		t.Errorf("components: %q; want %q", k.Components, want)
	}
	if !slices.Contains(read, filepath.Join(root, "components")) {
		t.Errorf("the glob's directory is not recorded: %q", read)
	}
	if err := addComponents(&types.Kustomization{}, dir, []string{"../../components/none"}, edit); err == nil {
		t.Error("a missing component: no error")
	}
}

func TestArgoGlob(t *testing.T) {
	cases := []struct {
		pattern, text string
		match         bool
	}{
		{"*.yaml", "a.yaml", true},
		{"*.yaml", "sub/a.yaml", true}, // no separators: * crosses /
		{"{*.yaml,*.yml}", "b.yml", true},
		{"{*.yaml,*.yml}", "c.json", false},
		{"legacy/*", "legacy/old.yaml", true},
		{"legacy/*", "sub/legacy/old.yaml", false},
		{"?.yaml", "a.yaml", true},
		{"[ab].yaml", "b.yaml", true},
		{"[!ab].yaml", "b.yaml", false},
		{"[a-c].yaml", "c.yaml", true},
		{`\*.yaml`, "*.yaml", true},
		{"{a,b", "a", false}, // does not compile: matches nothing
	}
	for _, tc := range cases {
		if got := globMatch(tc.pattern, tc.text); got != tc.match {
			t.Errorf("%q matches %q: %v; want %v", tc.pattern, tc.text, got, tc.match)
		}
	}
}

func TestArgoEnvsubst(t *testing.T) {
	e := &buildEnv{Vars: map[string]string{"ARGOCD_APP_NAME": "web"}}
	if got := e.Subst("$ARGOCD_APP_NAME-${ARGOCD_APP_NAME}-$$-$UNSET."); got != "web-web-$-." {
		t.Errorf("subst = %q", got)
	}
	if e.Subst("v-$ARGOCD_APP_REVISION"); !slices.Equal(e.Unknown, []string{"ARGOCD_APP_REVISION"}) {
		t.Errorf("unknown = %q", e.Unknown)
	}
}
