package source

import (
	"cmp"
	"slices"
	"sync"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// ChartPins records the charts one render released, from every build
// that runs side by side (and from kustomize's helmCharts, inflated
// while a kustomization is scanned): what Result.Charts gives.
type ChartPins struct {
	mu   sync.Mutex
	pins []delivery.ChartPin
}

// Add records a chart released; nil records nothing.
func (p *ChartPins) Add(pin delivery.ChartPin) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.pins = append(p.pins, pin)
}

// Sorted are the charts recorded, once each, by name, version, digest and
// where they came from: the same render gives the same list whatever
// order its builds ran in.
func (p *ChartPins) Sorted() []delivery.ChartPin {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	out := slices.Clone(p.pins)
	slices.SortFunc(out, func(a, b delivery.ChartPin) int {
		return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Digest, b.Digest), cmp.Compare(a.From, b.From))
	})
	return slices.Compact(out)
}
