package ci

import (
	"fmt"
	"strings"
)

// DidYouMean returns ` (did you mean "x"?)`, with format applied to x,
// when one of the candidates is a close misspelling of s, else "".
func DidYouMean(s string, candidates []string, format string) string {
	best, bestDist := "", 0
	for _, c := range candidates {
		limit := 2
		if len(c) <= 4 {
			limit = 1
		}
		d := distance(strings.ToLower(s), strings.ToLower(c), limit)
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + fmt.Sprintf(format, best) + "?)"
}

// distance is the number of single-byte insertions, deletions and
// substitutions that turn a into b, or limit+1 when it is more than limit.
func distance(a, b string, limit int) int {
	if a == b {
		return 0
	}
	if d := len(a) - len(b); d > limit || -d > limit || len(a) > 64 {
		return limit + 1 // (names are short; a long one is no misspelling)
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			up := row[j]
			cost := 0
			if a[i-1] != b[j-1] {
				cost = 1
			}
			row[j] = min(row[j]+1, row[j-1]+1, diag+cost)
			diag = up
		}
	}
	return min(row[len(b)], limit+1)
}
