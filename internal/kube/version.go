package kube

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Release is the API server's minor release, as "1.33": what a table of
// API removals is compared with. Read within ctx (client-go's version
// request takes no context: bound.go), once per call.
func (c *Client) Release(ctx context.Context) (Release, error) {
	info, err := c.ServerVersion(ctx)
	if err != nil {
		return Release{}, err
	}
	return ParseRelease(info.Major, info.Minor)
}

// Release is a Kubernetes minor release; the zero value is unknown.
type Release struct{ Major, Minor int }

// ParseRelease reads a server's version fields. Providers' builds write
// the minor with a suffix ("33+"), which is dropped.
func ParseRelease(major, minor string) (Release, error) {
	ma, err := strconv.Atoi(major)
	if err != nil {
		return Release{}, fmt.Errorf("the API server's major version %q: %w", major, err)
	}
	mi, err := strconv.Atoi(strings.TrimRight(minor, "+"))
	if err != nil {
		return Release{}, fmt.Errorf("the API server's minor version %q: %w", minor, err)
	}
	return Release{Major: ma, Minor: mi}, nil
}

// Known tells a read release from the zero value.
func (r Release) Known() bool { return r.Major > 0 }

// Before tells whether r is an older release than o.
func (r Release) Before(o Release) bool {
	return r.Major < o.Major || r.Major == o.Major && r.Minor < o.Minor
}

func (r Release) String() string { return fmt.Sprintf("%d.%d", r.Major, r.Minor) }
