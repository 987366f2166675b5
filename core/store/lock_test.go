package store

import (
	"testing"
	"time"
)

// A panic inside a write (here a nil entity reaching apply) must leave the
// table unlocked: the next write goes through.
func TestPanicInsideApplyReleasesTheTable(t *testing.T) {
	s := New(Options{Clock: time.Now})
	if _, err := s.CreateTable("locks"); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() { recover() }()
		s.Apply("locks", Op{Kind: Insert})
		t.Fatal("a nil entity did not panic")
	}()
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Apply("locks", Op{Kind: Insert, Entity: ent("p", "r")})
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the table stayed locked after a panic inside apply")
	}
}
