//go:build unix

package room_test

import (
	"testing"

	"github.com/tableplay/tableplay/workers/workerdtest"
)

// TestMain removes workerdtest's build when the tests end.
func TestMain(m *testing.M) { workerdtest.Main(m) }
