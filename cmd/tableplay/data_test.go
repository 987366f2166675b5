package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/azcore"
)

func TestAccountSurvivesRestart(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := startChild(t, nil, "--data", dir)
	if a := c.account(); !strings.Contains(a, dir) || !strings.Contains(a, "0 change(s) replayed") {
		t.Errorf("account line %q", a)
	}
	svc := c.service(t)
	if _, err := svc.CreateTable(ctx, "kept", nil); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.NewClient("kept").AddEntity(ctx, []byte(`{"PartitionKey":"p","RowKey":"r","N":1}`), nil); err != nil {
		t.Fatal(err)
	}
	c.stop(t)

	c = startChild(t, nil, "--data", dir)
	defer c.stop(t)
	if a := c.account(); !strings.Contains(a, "2 change(s) replayed") {
		t.Errorf("account line %q", a)
	}
	got, err := c.service(t).NewClient("kept").GetEntity(ctx, "p", "r", nil)
	if err != nil || !strings.Contains(string(got.Value), `"N":1`) {
		t.Fatalf("after restart: %v %s", err, got.Value)
	}
}

func TestInMemoryForgets(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	env := []string{"XDG_DATA_HOME=" + home, "HOME=" + home}
	c := startChild(t, env, "--in-memory")
	if a := c.account(); !strings.HasPrefix(a, "in memory") {
		t.Errorf("account line %q", a)
	}
	if _, err := c.service(t).CreateTable(ctx, "lost", nil); err != nil {
		t.Fatal(err)
	}
	c.stop(t)
	c = startChild(t, env, "--in-memory")
	defer c.stop(t)
	_, err := c.service(t).NewClient("lost").GetAccessPolicy(ctx, nil)
	var re *azcore.ResponseError
	if !errors.As(err, &re) || re.StatusCode != 404 {
		t.Errorf("table after an in-memory restart: %v", err)
	}
	if entries, _ := os.ReadDir(home); len(entries) != 0 {
		t.Errorf("--in-memory wrote to the data directory: %v", entries)
	}
}

func TestDefaultDataDirectory(t *testing.T) {
	ctx := context.Background()
	home := t.TempDir()
	c := startChild(t, []string{"XDG_DATA_HOME=" + home})
	want := filepath.Join(home, "tableplay")
	if a := c.account(); !strings.Contains(a, want) {
		t.Errorf("account line %q, want %s", a, want)
	}
	if _, err := c.service(t).CreateTable(ctx, "here", nil); err != nil {
		t.Fatal(err)
	}
	c.stop(t)
	if _, err := os.Stat(filepath.Join(want, "LOCK")); err != nil {
		t.Errorf("no data in %s: %v", want, err)
	}
	// Without XDG_DATA_HOME: ~/.local/share/tableplay.
	c = startChild(t, []string{"XDG_DATA_HOME=", "HOME=" + home})
	defer c.stop(t)
	if a := c.account(); !strings.Contains(a, filepath.Join(home, ".local", "share", "tableplay")) {
		t.Errorf("account line %q", a)
	}
}

func TestDataFlagsExcludeEachOther(t *testing.T) {
	err := run([]string{"serve", "--addr", "127.0.0.1:0", "--in-memory", "--data", t.TempDir()}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "exclude") {
		t.Errorf("--data with --in-memory: %v", err)
	}
	// A second server on the same directory is refused.
	dir := t.TempDir()
	c := startChild(t, nil, "--data", dir)
	defer c.stop(t)
	err = run([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "in use") {
		t.Errorf("second server on one directory: %v", err)
	}
}
