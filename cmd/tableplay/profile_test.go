package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

func TestProfileFlag(t *testing.T) {
	err := run([]string{"serve", "--addr", "127.0.0.1:0", "--in-memory", "--profile", "Cosmos"}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "want one of azure, cosmos") {
		t.Fatalf("--profile Cosmos: %v", err)
	}
	ctx := context.Background()
	home := t.TempDir()
	c := startChild(t, []string{"XDG_DATA_HOME=" + home}, "--profile", "cosmos")
	defer c.stop(t)
	// Another implementation's account keeps its own directory.
	if a := c.account(); !strings.Contains(a, filepath.Join(home, "tableplay-cosmos")) {
		t.Errorf("account line %q", a)
	}
	svc := c.service(t)
	for _, n := range []string{"People", "people"} {
		if _, err := svc.CreateTable(ctx, n, nil); err != nil {
			t.Fatalf("create %s under --profile cosmos: %v", n, err)
		}
	}
}
