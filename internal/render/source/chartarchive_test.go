package source

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// tgz is a chart archive of the files given, under top/ as `helm
// package` writes them.
func tgz(t *testing.T, top string, files map[string][]byte) []byte {
	return chartserver.Tgz(t, top, files)
}

// tarCharts opens chart archives with the standard library, as Helm's
// loader names their files (from below the chart's top folder): the
// budget's counting is this package's, loading a chart render/helm's.
type tarCharts struct{}

func (tarCharts) ArchiveFiles(data []byte, each func(name string, data []byte) error) error {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			return err
		}
		_, name, _ := strings.Cut(h.Name, "/")
		if err := each(name, body); err != nil {
			return err
		}
	}
}

func (c tarCharts) LoadArchive(data []byte, take func(name string, data []byte) error) (LoadedChart, error) {
	return nil, c.ArchiveFiles(data, take)
}

// TestChartPinsSorted: the charts a render released are listed once
// each, in one order whatever order its builds recorded them in.
func TestChartPinsSorted(t *testing.T) {
	p := &ChartPins{}
	a := delivery.ChartPin{Name: "podinfo", Version: "6.8.0", Digest: "sha256:cd"}
	b := delivery.ChartPin{Name: "podinfo", Version: "6.7.1", Digest: "sha256:ab"}
	c := delivery.ChartPin{Name: "app", Version: "1.0.0"}
	for _, pin := range []delivery.ChartPin{a, b, a, c} {
		p.Add(pin)
	}
	got := p.Sorted()
	if want := []delivery.ChartPin{c, b, a}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%v, want %v", got, want)
	}
	var none *ChartPins
	none.Add(a)
	if none.Sorted() != nil {
		t.Error("a nil record recorded")
	}
}
