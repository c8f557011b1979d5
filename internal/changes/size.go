package changes

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
)

// pace is how a template change reaches a workload's pods: how many pods
// there are, how fast they are replaced, and whether any is replaced at
// once (OnDelete, a ReplicaSet, a paused Deployment or a partition at or
// above the replicas leave every pod as it is until it is deleted, the
// Deployment resumed or the partition lowered).
type pace struct {
	pods     *int64
	strategy string
	now      bool
}

// size reads how many pods a rollout replaces, from live (what an
// autoscaler set, not the manifest's), and how fast, from the update
// strategy the deploy leaves.
func size(w workload, live, after map[string]any) pace {
	var pods *int64
	if n, ok := replicas(live); ok && w.replicas {
		pods = &n
	}
	switch w.kind {
	case "Deployment":
		if paused, _ := nestedValue(after, "spec", "paused").(bool); paused {
			return pace{pods, "paused: pods get the new template when the Deployment is resumed", false}
		}
		return pace{pods, deploymentStrategy(pods, after), true}
	case "StatefulSet":
		s, now := statefulSetStrategy(pods, after)
		return pace{pods, s, now}
	case "DaemonSet":
		if v, ok := nested(live, "status", "desiredNumberScheduled"); ok {
			if n, ok := number(v); ok {
				p := int64(n)
				pods = &p
			}
		}
		s, now := daemonSetStrategy(pods, after)
		return pace{pods, s, now}
	case "ReplicaSet":
		return pace{pods, "a ReplicaSet replaces no pod itself: pods get the new template when each pod is deleted", false}
	case "Job":
		return pace{pods, "a Job's pod template cannot change: the Job must be recreated", true}
	case "CronJob":
		return pace{pods, "the next Jobs start with the new template; running Jobs keep theirs", true}
	}
	return pace{pods, "", true}
}

// onDelete is the strategy of a StatefulSet or DaemonSet whose controller
// replaces no pod: the template waits for each pod's deletion.
const onDelete = "OnDelete: pods get the new template when each pod is deleted"

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

// statefulSetStrategy says how fast a StatefulSet's pods are replaced,
// and whether any is now: a partition holds back the ordinals below it,
// so one at or above the replica count (the deploy's, else live's)
// replaces none.
func statefulSetStrategy(pods *int64, obj map[string]any) (string, bool) {
	typ, _ := nestedValue(obj, "spec", "updateStrategy", "type").(string)
	if typ == "OnDelete" {
		return onDelete, false
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
	f, ok := number(nestedValue(obj, "spec", "updateStrategy", "rollingUpdate", "partition"))
	if !ok || f <= 0 {
		return s, true
	}
	p := int64(f)
	n, known := replicas(obj)
	if !known && pods != nil {
		n, known = *pods, true
	}
	if known && p >= n {
		return fmt.Sprintf("partition %d ≥ %d %s: no pod gets the new template now; pods get it when the partition is lowered",
			p, n, model.Plural(n, "replica", "replicas")), false
	}
	return s + fmt.Sprintf("; partition %d: pods with ordinal ≥ %d now, the rest when the partition is lowered", p, p), true
}

func daemonSetStrategy(pods *int64, obj map[string]any) (string, bool) {
	typ, _ := nestedValue(obj, "spec", "updateStrategy", "type").(string)
	if typ == "OnDelete" {
		return onDelete, false
	}
	mu := nestedValue(obj, "spec", "updateStrategy", "rollingUpdate", "maxUnavailable")
	if pods == nil {
		return fmt.Sprintf("one pod per node, maxUnavailable %s", intOrPercent(mu, "1")), true
	}
	return fmt.Sprintf("%d %s (one per node), %d at a time", *pods, model.Plural(*pods, "pod", "pods"), max(scaled(mu, "1", *pods, false), 1)), true
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
