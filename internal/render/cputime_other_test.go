//go:build !unix

package render

import "time"

func processCPU() time.Duration { return 0 }
