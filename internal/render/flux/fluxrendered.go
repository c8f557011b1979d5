package flux

import (
	"context"
	"fmt"
	"path"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// renderedFirst is the ValueReader a Flux object's valuesFrom and
// substituteFrom read through: the ConfigMaps and Secrets of the render
// that applies the object first (delivery.Deployer.RenderedValues: its
// parent's render at the same revision, a generator's hash suffix
// included), so that a pull request's edit of them is what the check
// renders; then vr (the repository's files as written, then the
// cluster). The cluster is asked only for what no render of the
// repository makes.
type renderedFirst struct {
	rendered []model.ValuesSource
	vr       source.ValueReader
}

// valuesFor is the reader for the deployer d: vr itself when no render
// made d.
func valuesFor(d *delivery.Deployer, vr source.ValueReader) source.ValueReader {
	if d == nil || len(d.RenderedValues) == 0 {
		return vr
	}
	return renderedFirst{rendered: d.RenderedValues, vr: vr}
}

// Values answers from the render when it made the object. A Secret SOPS
// encrypted there answers, with stand-ins, with its keys' placeholders,
// as one written in the repository does; without, it is withheld. A
// plain Secret of the render is the repository's own text: its values are
// given, and the render hides what it takes from them.
func (r renderedFirst) Values(ctx context.Context, kind, namespace, name string, standIns *model.StandIns) (map[string]string, string, bool, error) {
	v, ok := model.FindValuesSource(r.rendered, kind, namespace, name)
	if !ok {
		if r.vr == nil {
			return nil, "", false, nil
		}
		return r.vr.Values(ctx, kind, namespace, name, standIns)
	}
	switch {
	case v.Encrypted && standIns != nil:
		return standIns.Data(namespace, name, v.Keys), v.File, true, nil
	case v.Encrypted:
		return nil, v.File, true, &delivery.ValuesWithheld{Reason: fmt.Sprintf("%s is encrypted with SOPS (%s): its values are never decrypted here, so what it gives is not checked", name, path.Base(v.File))}
	case len(v.StandIns) > 0 && standIns != nil:
		// Discovery's placeholders (the run's first set) become this
		// render's, known as handed out, so that its second render marks
		// what depends on them.
		standIns.Register(v.StandIns)
		first := model.NewStandIns()
		data := make(map[string]string, len(v.Data))
		for k, text := range v.Data {
			data[k] = first.Swap(text, v.StandIns, standIns)
		}
		return data, v.File, true, nil
	}
	return v.Data, v.File, true, nil
}
