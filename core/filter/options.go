package filter

import (
	"strconv"
	"strings"

	"github.com/tableplay/tableplay/core/entity"
	"github.com/tableplay/tableplay/core/tableerr"
)

// MaxTop is the largest $top and the most entities on one page.
const MaxTop = 1000

// ParseTop reads $top: an integer from 0 to 1000, anything else 400
// InvalidInput (F-TOP-RANGE, F-TOP-ZERO).
func ParseTop(s string) (int, *tableerr.Error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n < 0 || n > MaxTop {
		return 0, tableerr.New(tableerr.InvalidInput)
	}
	return n, nil
}

// ParseSelect reads $select: comma-separated property names, spaces around
// them ignored. An empty $select, or *, selects everything (nil). A name that is not
// a property name, or more than 255 names, is 400 InvalidInput.
func ParseSelect(s string) ([]string, *tableerr.Error) {
	if t := strings.TrimSpace(s); t == "" || t == "*" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > entity.MaxProperties {
		return nil, tableerr.New(tableerr.InvalidInput)
	}
	out := make([]string, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		if !entity.ValidPropertyName(p) {
			return nil, tableerr.New(tableerr.InvalidInput)
		}
		out = append(out, p)
	}
	return out, nil
}
