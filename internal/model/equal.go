package model

import (
	"encoding/json"
	"math"
	"reflect"
	"sort"
)

// EqualValues compares two values as JSON values: 3 and 3.0 are equal, map
// key order does not matter, and a number never equals its string form.
func EqualValues(a, b any) bool {
	switch av := a.(type) {
	case nil:
		return b == nil
	case string:
		bv, ok := b.(string)
		return ok && av == bv
	case bool:
		bv, ok := b.(bool)
		return ok && av == bv
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for k, x := range av {
			y, ok := bv[k]
			if !ok || !EqualValues(x, y) {
				return false
			}
		}
		return true
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			return false
		}
		for i := range av {
			if !EqualValues(av[i], bv[i]) {
				return false
			}
		}
		return true
	}
	if an, ok := toNumber(a); ok {
		bn, ok := toNumber(b)
		return ok && an.equal(bn)
	}
	return reflect.DeepEqual(a, b)
}

// number keeps integers exact: float64 cannot tell 2^53 from 2^53+1.
type number struct {
	isInt bool
	i     int64
	f     float64
}

func (n number) equal(o number) bool {
	switch {
	case n.isInt && o.isInt:
		return n.i == o.i
	case n.isInt:
		return floatEqualsInt(o.f, n.i)
	case o.isInt:
		return floatEqualsInt(n.f, o.i)
	}
	return n.f == o.f
}

func floatEqualsInt(f float64, i int64) bool {
	if f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
		return false
	}
	return int64(f) == i
}

func toNumber(v any) (number, bool) {
	switch x := v.(type) {
	case int:
		return number{isInt: true, i: int64(x)}, true
	case int8:
		return number{isInt: true, i: int64(x)}, true
	case int16:
		return number{isInt: true, i: int64(x)}, true
	case int32:
		return number{isInt: true, i: int64(x)}, true
	case int64:
		return number{isInt: true, i: x}, true
	case uint:
		return uintNumber(uint64(x)), true
	case uint8:
		return number{isInt: true, i: int64(x)}, true
	case uint16:
		return number{isInt: true, i: int64(x)}, true
	case uint32:
		return number{isInt: true, i: int64(x)}, true
	case uint64:
		return uintNumber(x), true
	case float32:
		return floatNumber(float64(x)), true
	case float64:
		return floatNumber(x), true
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return number{isInt: true, i: i}, true
		}
		if f, err := x.Float64(); err == nil {
			return floatNumber(f), true
		}
	}
	return number{}, false
}

func uintNumber(u uint64) number {
	if u > math.MaxInt64 {
		return number{f: float64(u)}
	}
	return number{isInt: true, i: int64(u)}
}

func floatNumber(f float64) number {
	if floatEqualsInt(f, int64(f)) {
		return number{isInt: true, i: int64(f)}
	}
	return number{f: f}
}

// UnionKeys are the keys of a and b, each once, sorted: the fields a walk
// of two objects side by side visits.
func UnionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
