package config

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ArgoCluster is a cluster registered in Argo CD, as an entry's
// `clusters:` list gives it: what an ApplicationSet's clusters generator
// reads of its cluster Secret (name, server, labels, annotations), and the
// kubeconfig context that reaches it.
type ArgoCluster struct {
	Name        string            `json:"name,omitempty"`
	Server      string            `json:"server,omitempty"`
	Context     string            `json:"context"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// UnmarshalJSON reads `clusters:` in either form: the map of destinations
// to contexts, or the list of clusters, whose names and servers make the
// map too.
func (d *Discover) UnmarshalJSON(b []byte) error {
	type plain Discover
	var raw struct {
		plain
		Clusters json.RawMessage `json:"clusters,omitempty"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return err
	}
	*d = Discover(raw.plain)
	d.Clusters, d.ClusterList = nil, nil
	c := bytes.TrimSpace(raw.Clusters)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
		return nil
	case c[0] == '[':
		dec := json.NewDecoder(bytes.NewReader(c))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&d.ClusterList); err != nil {
			return fmt.Errorf("clusters: %w", err)
		}
		d.Clusters = map[string]string{}
		for _, cl := range d.ClusterList {
			for _, k := range []string{cl.Name, cl.Server} {
				if k != "" {
					d.Clusters[k] = cl.Context
				}
			}
		}
		return nil
	}
	if err := json.Unmarshal(c, &d.Clusters); err != nil {
		return fmt.Errorf("clusters: give a map of destinations to contexts, or a list of {name, server, context, labels}: %w", err)
	}
	return nil
}

func (d Discover) validateClusters() error {
	seen := map[string]int{}
	for i, c := range d.ClusterList {
		if c.Context == "" || (c.Name == "" && c.Server == "") {
			return fmt.Errorf("argocd: clusters[%d]: give context and the cluster's name or server (both, for a clusters generator)", i)
		}
		for _, k := range []string{c.Name, c.Server} {
			if j, dup := seen[k]; dup && k != "" {
				return fmt.Errorf("argocd: clusters[%d]: %s is clusters[%d]'s too", i, k, j)
			}
			seen[k] = i
		}
	}
	return nil
}

// Registered is the clusters an ApplicationSet's clusters generator
// reads, in the config's order; nil when the entry gives the map form,
// which says which context a destination is but not the cluster's name,
// server and labels.
func (d Discover) Registered() []ArgoCluster {
	var out []ArgoCluster
	for _, c := range d.ClusterList {
		if c.Name != "" && c.Server != "" {
			out = append(out, c)
		}
	}
	return out
}
