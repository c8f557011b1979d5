package changes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// size reads how many pods a rollout replaces, from live (what an
// autoscaler set, not the manifest's), and how fast, from the update
// strategy the deploy leaves.
func size(w workload, live, after map[string]any) (*int64, string) {
	var pods *int64
	if n, ok := replicas(live); ok && w.replicas {
		pods = &n
	}
	switch w.kind {
	case "Deployment":
		return pods, deploymentStrategy(pods, after)
	case "StatefulSet":
		return pods, statefulSetStrategy(pods, after)
	case "DaemonSet":
		if v, ok := nested(live, "status", "desiredNumberScheduled"); ok {
			if n, ok := number(v); ok {
				p := int64(n)
				pods = &p
			}
		}
		return pods, daemonSetStrategy(pods, after)
	case "ReplicaSet":
		return pods, "a ReplicaSet replaces no pod itself: pods get the new template only when deleted"
	case "Job":
		return pods, "a Job's pod template cannot change: the Job must be recreated"
	case "CronJob":
		return pods, "the next Jobs start with the new template; running Jobs keep theirs"
	}
	return pods, ""
}

func deploymentStrategy(pods *int64, obj map[string]any) string {
	typ, _ := nestedValue(obj, "spec", "strategy", "type").(string)
	if typ == "Recreate" {
		if pods != nil {
			return fmt.Sprintf("Recreate: all %d pods stop before new ones start", *pods)
		}
		return "Recreate: all pods stop before new ones start"
	}
	surge := nestedValue(obj, "spec", "strategy", "rollingUpdate", "maxSurge")
	unavailable := nestedValue(obj, "spec", "strategy", "rollingUpdate", "maxUnavailable")
	if pods == nil {
		return fmt.Sprintf("rolling update (maxSurge %s, maxUnavailable %s)", intOrPercent(surge, "25%"), intOrPercent(unavailable, "25%"))
	}
	n := *pods
	s := scaled(surge, "25%", n, true)
	u := scaled(unavailable, "25%", n, false)
	at := max(s+u, 1)
	return fmt.Sprintf("%d %s, %d at a time (maxSurge %s, maxUnavailable %s)", n, model.Plural(n, "pod", "pods"), min(at, max(n, 1)),
		intOrPercent(surge, "25%"), intOrPercent(unavailable, "25%"))
}

func statefulSetStrategy(pods *int64, obj map[string]any) string {
	typ, _ := nestedValue(obj, "spec", "updateStrategy", "type").(string)
	if typ == "OnDelete" {
		return "OnDelete: pods get the new template only when deleted"
	}
	count := "pods"
	if pods != nil {
		count = fmt.Sprintf("%d %s", *pods, model.Plural(*pods, "pod", "pods"))
	}
	at := "one at a time"
	if mu := nestedValue(obj, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable"); mu != nil && pods != nil {
		at = fmt.Sprintf("%d at a time", max(scaled(mu, "1", *pods, false), 1))
	}
	s := fmt.Sprintf("%s, %s, highest ordinal first", count, at)
	if p, ok := number(nestedValue(obj, "spec", "updateStrategy", "rollingUpdate", "partition")); ok && p > 0 {
		s += fmt.Sprintf("; partition %d: only ordinals ≥ %d are replaced", int64(p), int64(p))
	}
	return s
}

func daemonSetStrategy(pods *int64, obj map[string]any) string {
	typ, _ := nestedValue(obj, "spec", "updateStrategy", "type").(string)
	if typ == "OnDelete" {
		return "OnDelete: pods get the new template only when deleted"
	}
	mu := nestedValue(obj, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable")
	if pods == nil {
		return fmt.Sprintf("one pod per node, maxUnavailable %s", intOrPercent(mu, "1"))
	}
	return fmt.Sprintf("%d %s (one per node), %d at a time", *pods, model.Plural(*pods, "pod", "pods"), max(scaled(mu, "1", *pods, false), 1))
}

func intOrPercent(v any, def string) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return def
	}
	if n, ok := number(v); ok {
		return strconv.FormatInt(int64(n), 10)
	}
	return def
}

// scaled resolves an int-or-percent of n pods the way the controllers do:
// a surge rounds up, an unavailable count down.
func scaled(v any, def string, n int64, up bool) int64 {
	s := intOrPercent(v, def)
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil {
			return 0
		}
		x := f * float64(n) / 100
		if up {
			return int64(math.Ceil(x))
		}
		return int64(math.Floor(x))
	}
	i, _ := strconv.ParseInt(s, 10, 64)
	return i
}
