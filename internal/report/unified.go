package report

import (
	"fmt"
	"strings"
)

// A changed object's body as kubectl diff shows it: a unified diff of its
// YAML before and after, with context.

// diffContext is how many unchanged lines surround each change.
const diffContext = 3

// maxDiffCells bounds the line comparison (lines before × lines after,
// once the common head and tail are set aside): past it the per-field
// diff is shown instead.
const maxDiffCells = 1 << 20

type diffOp struct {
	kind byte // ' ', '-' or '+'
	text string
}

// unifiedDiff is the unified diff of a and b, "" when they are equal or
// too different to compare here.
func unifiedDiff(a, b string) string {
	al, bl := splitLines(a), splitLines(b)
	pre := 0
	for pre < len(al) && pre < len(bl) && al[pre] == bl[pre] {
		pre++
	}
	suf := 0
	for suf < len(al)-pre && suf < len(bl)-pre && al[len(al)-1-suf] == bl[len(bl)-1-suf] {
		suf++
	}
	am, bm := al[pre:len(al)-suf], bl[pre:len(bl)-suf]
	if len(am)+len(bm) == 0 || (len(am)+1)*(len(bm)+1) > maxDiffCells {
		return ""
	}
	ops := make([]diffOp, 0, len(al)+len(bm))
	for _, l := range al[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ops = append(ops, lcsOps(am, bm)...)
	for _, l := range al[len(al)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return hunks(ops)
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// lcsOps is the edit from a to b along a longest common subsequence of
// lines, removals before additions.
func lcsOps(a, b []string) []diffOp {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int32, n+1)
	for i := range l {
		l[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i, j = i+1, j+1
		case j == m || (i < n && l[i+1][j] >= l[i][j+1]):
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	return ops
}

// hunks writes the changes of ops with diffContext lines around each,
// under "@@ -a,n +b,m @@" headers.
func hunks(ops []diffOp) string {
	var b strings.Builder
	for start := 0; start < len(ops); {
		first := start
		for first < len(ops) && ops[first].kind == ' ' {
			first++
		}
		if first == len(ops) {
			break
		}
		lo := max(first-diffContext, start)
		// The hunk ends after diffContext unchanged lines that no change
		// follows within 2*diffContext.
		hi, same := first, 0
		for hi < len(ops) && same <= 2*diffContext {
			if ops[hi].kind == ' ' {
				same++
			} else {
				same = 0
			}
			hi++
		}
		// same counts the unchanged lines taken after the last change.
		hi -= max(same-diffContext, 0)
		aLine, bLine := 1, 1
		for _, op := range ops[:lo] {
			if op.kind != '+' {
				aLine++
			}
			if op.kind != '-' {
				bLine++
			}
		}
		an, bn := 0, 0
		for _, op := range ops[lo:hi] {
			if op.kind != '+' {
				an++
			}
			if op.kind != '-' {
				bn++
			}
		}
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", aLine, an, bLine, bn)
		for _, op := range ops[lo:hi] {
			fmt.Fprintf(&b, "%c %s\n", op.kind, op.text)
		}
		start = hi
	}
	return b.String()
}
