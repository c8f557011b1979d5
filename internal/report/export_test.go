package report

// What the tests of package report_test see of the package's insides.

const AnsiRed = ansiRed

func Redacted(r *Report) *Report { return r.redacted() }
