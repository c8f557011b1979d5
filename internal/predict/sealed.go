package predict

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/parallel"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// A streaming engine holds each object waiting for its prediction as
// compact JSON, not decoded: decoded, a rendered object takes about eight
// times the bytes of its JSON (decodedPerSealed: a map per nested object, a
// boxed value per field), and
// at 5,000 objects the whole render, decoded, was more than a third of the
// check's peak live heap while the first dry-runs were in flight. The
// dry-run (offline: the merge) decodes it again, so only the objects in
// the window are decoded at any time. The round trip is the one the
// request makes anyway: what the analysis gets is what was sent.

// sealed is an object's JSON.
type sealed []byte

// seal encodes u. An object that does not encode is not sealed (nil): the
// dry-run's own encoding says what is wrong with it.
func seal(u *unstructured.Unstructured) sealed {
	b, err := json.Marshal(u.Object)
	if err != nil {
		return nil
	}
	return b
}

// open decodes the object as the API machinery decodes JSON (whole numbers
// as int64, as a rendered object holds them).
func (s sealed) open() (*unstructured.Unstructured, error) {
	var m map[string]any
	if err := utiljson.Unmarshal(s, &m); err != nil {
		return nil, fmt.Errorf("decoding the object held for its dry-run: %w", err)
	}
	return &unstructured.Unstructured{Object: m}, nil
}

// sealObjects seals objs' objects, on every core (at 5,000 objects the
// encoding takes tens of milliseconds before the first request goes out),
// lets go of each one sealed, and returns them (nil for an object not
// sealed) with the bytes they take.
func sealObjects(objs []model.Object) ([]sealed, int) {
	held := make([]sealed, len(objs))
	parallel.For(len(objs), runtime.GOMAXPROCS(0), func(i int) {
		if held[i] = seal(objs[i].Object); held[i] != nil {
			objs[i].Object = nil
		}
	})
	n := 0
	for _, h := range held {
		n += len(h)
	}
	return held, n
}

// decodedPerSealed is about how many bytes of heap a decoded object takes
// per byte of its JSON: the bench's 5,000 objects are 2.1 MB of JSON and
// 17.6 MiB decoded.
const decodedPerSealed = 8

// collectIfReleased collects the heap at once when sealing let go of a
// quarter or more of what the last collection found live. The collector
// sizes the heap at twice what it found live, and it last looked while the
// render was whole: without this, the heap grew to twice the render's size
// before the next collection noticed it was gone, and that was the peak of
// a 5,000-object check (about 10 MiB of it). A render of a few objects, as
// each target of a monorepo's run is, is never worth a collection.
func collectIfReleased(sealedBytes int) {
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	if live[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	if released := uint64(sealedBytes) * decodedPerSealed; released >= live[0].Value.Uint64()/4 {
		runtime.GC()
	}
}

// unsealed is o with its object back from h, for its prediction and what
// follows it. JSON this engine encoded does not fail to decode; if it did,
// the object would be a failed prediction (fail closed), with an empty
// object in its place.
func unsealed(o model.Object, h sealed) (model.Object, error) {
	if h == nil {
		return o, nil
	}
	u, err := h.open()
	if err != nil {
		u = &unstructured.Unstructured{Object: map[string]any{}}
	}
	o.Object = u
	return o, err
}

// unseal gives t its object back for the dry-run (unsealed).
func (t *target) unseal() error {
	var err error
	t.obj, err = unsealed(t.obj, t.held)
	t.held = nil
	return err
}
