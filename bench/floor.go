package main

import (
	"bufio"
	"encoding/json"
	"os"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
)

// floorRequest is one PATCH of bench/floor, which cannot be imported
// (a main package): the field names must agree with its Request.
type floorRequest struct {
	GVR       schema.GroupVersionResource `json:"gvr"`
	Namespace string                      `json:"namespace,omitempty"`
	Name      string                      `json:"name"`
	Body      json.RawMessage             `json:"body"`
}

// writeFloorInput resolves every object's resource and writes the floor's
// requests, one JSON object a line.
func writeFloorInput(path string, kc *kube.Client, objs []object) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for _, o := range objs {
		gv, err := schema.ParseGroupVersion(o.body["apiVersion"].(string))
		if err != nil {
			return err
		}
		m, err := kc.Mapping(gv.WithKind(o.kind()))
		if err != nil {
			return err
		}
		body, err := json.Marshal(o.body)
		if err != nil {
			return err
		}
		if err := enc.Encode(floorRequest{GVR: m.Resource, Namespace: o.namespace(), Name: o.name(), Body: body}); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}
