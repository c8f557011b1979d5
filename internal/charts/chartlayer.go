package charts

import (
	"encoding/json"
	"fmt"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"helm.sh/helm/v3/pkg/registry"
)

// chartLayer is the one layer of an OCI manifest that holds the chart,
// read as Helm's registry client reads a chart's manifest: an OCI image
// manifest, Helm's config media type, and a layer of the chart's media
// type (or its deprecated one). The provenance layer and any other are
// never fetched. Where Helm would pull every chart layer and keep
// whichever it copied last, an artifact with more than one is refused:
// which chart its deploy would render is not known.
func chartLayer(mediaType string, manifest []byte) (ocispec.Descriptor, error) {
	var m ocispec.Manifest
	if err := json.Unmarshal(manifest, &m); err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("its manifest is not JSON: %w", err)
	}
	if mediaType == "" {
		mediaType = m.MediaType
	}
	if mediaType != ocispec.MediaTypeImageManifest {
		return ocispec.Descriptor{}, fmt.Errorf("its manifest is %s, not the OCI image manifest (%s) Helm pulls a chart from", mediaType, ocispec.MediaTypeImageManifest)
	}
	if m.Config.MediaType != registry.ConfigMediaType {
		return ocispec.Descriptor{}, fmt.Errorf("not a Helm chart: its config is %q, not %s", m.Config.MediaType, registry.ConfigMediaType)
	}
	var charts []ocispec.Descriptor
	for _, l := range m.Layers {
		if l.MediaType == registry.ChartLayerMediaType || l.MediaType == registry.LegacyChartLayerMediaType {
			charts = append(charts, l)
		}
	}
	switch len(charts) {
	case 0:
		return ocispec.Descriptor{}, fmt.Errorf("its manifest has no layer of the chart's media type %s", registry.ChartLayerMediaType)
	case 1:
		return charts[0], nil
	}
	return ocispec.Descriptor{}, fmt.Errorf("its manifest has %d chart layers (%s): a chart artifact has one, and which one Helm would render is not known", len(charts), registry.ChartLayerMediaType)
}
