package charts

import (
	"strings"
	"testing"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// TestChartLayerAsHelmReadsTheManifest: an image manifest with Helm's
// config and one chart layer gives that layer; another manifest type or
// config is refused by name.
func TestChartLayerAsHelmReadsTheManifest(t *testing.T) {
	const layer = `{"mediaType":"application/vnd.cncf.helm.chart.content.v1.tar+gzip","digest":"sha256:` + "0000000000000000000000000000000000000000000000000000000000000000" + `","size":3}`
	manifest := func(config string) []byte {
		return []byte(`{"schemaVersion":2,"config":{"mediaType":"` + config + `","digest":"sha256:0000000000000000000000000000000000000000000000000000000000000000","size":2},"layers":[` + layer + `]}`)
	}
	got, err := chartLayer(ocispec.MediaTypeImageManifest, manifest("application/vnd.cncf.helm.config.v1+json"))
	if err != nil || got.Size != 3 {
		t.Errorf("chart layer %+v, %v", got, err)
	}
	for name, c := range map[string]struct {
		mediaType string
		manifest  []byte
		want      string
	}{
		"an index": {ocispec.MediaTypeImageIndex, manifest("application/vnd.cncf.helm.config.v1+json"), "not the OCI image manifest"},
		"an image": {ocispec.MediaTypeImageManifest, manifest(ocispec.MediaTypeImageConfig), "not a Helm chart"},
		"not JSON": {ocispec.MediaTypeImageManifest, []byte("<html>"), "not JSON"},
		"docker":   {"application/vnd.docker.distribution.manifest.v2+json", manifest("application/vnd.cncf.helm.config.v1+json"), "not the OCI image manifest"},
	} {
		if _, err := chartLayer(c.mediaType, c.manifest); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", name, err, c.want)
		}
	}
}
