package model

// IssuesURL is where an anomaly asks to be reported: the classifier met an
// ownership change its model says cannot happen, which only the project can
// fix.
const IssuesURL = "https://github.com/ownership-check/ownership-check/issues"

// ReportAnomaly ends every text about an anomaly, so that the reader knows
// what to do with it and where.
const ReportAnomaly = "please report it at " + IssuesURL + " with this report's JSON"
