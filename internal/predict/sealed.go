package predict

import (
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/metrics"

	"github.com/ownership-check/ownership-check/internal/parallel"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// A streaming engine holds each object waiting for its dry-run as compact
// JSON, not decoded: decoded, a rendered object takes about seven times the
// bytes of its JSON (a map per nested object, a boxed value per field), and
// at 5,000 objects the whole render, decoded, was more than a third of the
// check's peak live heap while the first dry-runs were in flight. The
// dry-run decodes it again, so only the objects in the window are decoded
// at any time. The round trip is the one the request makes anyway: what
// the analysis gets is what was sent.

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

// sealAll seals the targets' objects, on every core (at 5,000 objects the
// encoding takes tens of milliseconds before the first dry-run goes out),
// and returns the bytes they take sealed.
func sealAll(targets []*target) int {
	parallel.For(len(targets), runtime.GOMAXPROCS(0), func(i int) {
		t := targets[i]
		if t.held = seal(t.obj.Object); t.held != nil {
			t.obj.Object = nil
		}
	})
	n := 0
	for _, t := range targets {
		n += len(t.held)
	}
	return n
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

// unseal gives t its object back for the dry-run and what follows it. JSON
// this engine encoded does not fail to decode; if it did, the object would
// be a failed dry-run (fail closed), with an empty object in its place.
func (t *target) unseal() error {
	if t.held == nil {
		return nil
	}
	u, err := t.held.open()
	t.held = nil
	if err != nil {
		t.obj.Object = &unstructured.Unstructured{Object: map[string]any{}}
		return err
	}
	t.obj.Object = u
	return nil
}
