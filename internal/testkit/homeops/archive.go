package homeops

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"sort"
	"time"

	"helm.sh/helm/v3/pkg/chart/loader"
)

// epoch is every archive entry's time: the same chart always packs to
// the same bytes, so its digest is the same in every run.
var epoch = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// pack is a chart's .tgz as `helm package` lays it out: every file under
// a folder named after the chart.
func pack(name string, files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.ModTime = epoch
	tw := tar.NewWriter(zw)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		body := []byte(files[p])
		hdr := &tar.Header{Name: name + "/" + p, Mode: 0o644, Size: int64(len(body)), ModTime: epoch, Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return nil, err
		}
		if _, err := tw.Write(body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// FromArchive is a chart given as its archive (a public chart a test
// serves), its name and version read by Helm's loader.
func FromArchive(archive []byte, style Style) (Chart, error) {
	ch, err := loader.LoadArchive(bytes.NewReader(archive))
	if err != nil {
		return Chart{}, err
	}
	return Chart{Name: ch.Metadata.Name, Version: ch.Metadata.Version, Archive: archive, Style: style}, nil
}
