package play

import "strings"

// replaceDecisionIDs replaces each fidelity id a text cites ("F-" and one
// or more words of capitals and digits joined by hyphens, standing as a word
// of its own), with the parentheses around it when present, by what f returns for
// it. Matches are found left to right and do not overlap.
func replaceDecisionIDs(s string, f func(string) string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		j := i
		if s[j] == '(' {
			j++
		}
		if j+1 >= len(s) || s[j] != 'F' || s[j+1] != '-' || j > 0 && wordByte(s[j-1]) {
			continue
		}
		end := decisionIDEnd(s, j+2)
		if end < 0 {
			continue
		}
		if end < len(s) && s[end] == ')' {
			end++
		}
		b.WriteString(s[last:i])
		b.WriteString(f(s[i:end]))
		last = end
		i = end - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// decisionIDEnd returns where the longest id body starting at k ends: words
// of capitals and digits joined by single hyphens, the last one followed by
// a byte that is not a word byte (or the end); -1 when there is none.
func decisionIDEnd(s string, k int) int {
	end := -1
	for {
		n := k
		for n < len(s) && (s[n] >= 'A' && s[n] <= 'Z' || s[n] >= '0' && s[n] <= '9') {
			n++
		}
		if n == k {
			return end
		}
		if n == len(s) || !wordByte(s[n]) {
			end = n
		}
		if n+1 < len(s) && s[n] == '-' && (s[n+1] >= 'A' && s[n+1] <= 'Z' || s[n+1] >= '0' && s[n+1] <= '9') {
			k = n + 1
			continue
		}
		return end
	}
}

// wordByte is a byte of a word, as a regular expression's \b sees it.
func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
