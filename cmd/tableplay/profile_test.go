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

// TestDataDirectoryKeepsItsProfile: a directory written under cosmos (with
// tables azure would fold into one) refuses to start as azure, and an
// azure directory with tables refuses to start as cosmos; each starts
// again under its own profile.
func TestDataDirectoryKeepsItsProfile(t *testing.T) {
	ctx := context.Background()
	cosmosDir, azureDir := t.TempDir(), t.TempDir()
	c := startChild(t, nil, "--profile", "cosmos", "--data", cosmosDir)
	for _, n := range []string{"People", "people"} {
		if _, err := c.service(t).CreateTable(ctx, n, nil); err != nil {
			t.Fatal(err)
		}
	}
	c.stop(t)
	a := startChild(t, nil, "--data", azureDir)
	if _, err := a.service(t).CreateTable(ctx, "Kept", nil); err != nil {
		t.Fatal(err)
	}
	a.stop(t)
	for dir, args := range map[string][]string{cosmosDir: {"--profile", "azure"}, azureDir: {"--profile", "cosmos"}} {
		err := run(append([]string{"serve", "--addr", "127.0.0.1:0", "--quiet", "--data", dir}, args...), io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "keeps an account of the") {
			t.Errorf("%s %v: %v", dir, args, err)
		}
	}
	c = startChild(t, nil, "--profile", "cosmos", "--data", cosmosDir)
	defer c.stop(t)
	pager := c.service(t).NewListTablesPager(nil)
	n := 0
	for pages := 0; pager.More(); pages++ {
		if pages == 10 {
			t.Fatal("more than 10 pages of tables for 2 tables")
		}
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		n += len(page.Tables)
	}
	if n != 2 {
		t.Fatalf("%d tables after the restart under cosmos, want 2", n)
	}
}
