package model

import (
	"encoding/json"
	"math"
	"testing"
)

func TestEqualValues(t *testing.T) {
	big := int64(1) << 53
	for _, tc := range []struct {
		a, b any
		want bool
	}{
		{int64(3), 3.0, true},
		{3, int32(3), true},
		{uint64(3), 3.0, true},
		{json.Number("3"), 3.0, true},
		{json.Number("3.5"), 3.5, true},
		{float32(0.5), 0.5, true},
		{3.5, int64(3), false},
		{big + 1, float64(big), false},
		{big, float64(big), true},
		{uint64(math.MaxUint64), float64(math.MaxUint64), true},
		{math.MaxFloat64, int64(math.MaxInt64), false},
		{"3", int64(3), false},
		{int64(3), "3", false},
		{nil, nil, true},
		{nil, false, false},
		{true, true, true},
		{true, "true", false},
		{map[string]any{"a": int64(1), "b": []any{"x"}}, map[string]any{"b": []any{"x"}, "a": 1.0}, true},
		{map[string]any{"a": 1}, map[string]any{"b": 1}, false},
		{map[string]any{"a": 1}, map[string]any{"a": 1, "b": 2}, false},
		{map[string]any{}, []any{}, false},
		{[]any{int64(1), "a"}, []any{1.0, "a"}, true},
		{[]any{1, 2}, []any{2, 1}, false},
		{[]any{1}, []any{1, 2}, false},
		{[]any{}, map[string]any{}, false},
		{json.Number("x"), json.Number("x"), true}, // not a number: compared as it is
		{int8(1), uint8(1), true},
		{int16(1), uint16(1), true},
		{uint(1), uint32(1), true},
		{struct{ A int }{1}, struct{ A int }{1}, true},
	} {
		if got := EqualValues(tc.a, tc.b); got != tc.want {
			t.Errorf("EqualValues(%#v, %#v) = %t", tc.a, tc.b, got)
		}
		if got := EqualValues(tc.b, tc.a); got != tc.want {
			t.Errorf("EqualValues(%#v, %#v) = %t (reversed)", tc.b, tc.a, got)
		}
	}
}
