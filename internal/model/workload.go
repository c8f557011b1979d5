package model

// workloadKinds are the kinds that run pods from a template, by group and
// kind: what a coverage line counts as workloads. changes keeps, for each,
// where its template is.
var workloadKinds = map[ID]bool{
	{Group: "apps", Kind: "Deployment"}:  true,
	{Group: "apps", Kind: "StatefulSet"}: true,
	{Group: "apps", Kind: "DaemonSet"}:   true,
	{Group: "apps", Kind: "ReplicaSet"}:  true,
	{Group: "batch", Kind: "Job"}:        true,
	{Group: "batch", Kind: "CronJob"}:    true,
}

// IsWorkload says whether the object of id runs pods from a template.
func IsWorkload(id ID) bool {
	return workloadKinds[ID{Group: id.Group, Kind: id.Kind}]
}
