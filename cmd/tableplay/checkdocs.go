package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tableplay/tableplay/core/docscheck"
	"github.com/tableplay/tableplay/core/lesson"
	"github.com/tableplay/tableplay/lessons"
)

// errDocs is check-docs' failure: the problems are printed already.
var errDocs = errors.New("check-docs: examples no longer hold")

// checkDocsCommand checks the <table-playground> examples of the Markdown
// and HTML files named (folders are walked): each start state must load and
// each expectation hold. It prints file:line for each that does not.
func checkDocsCommand(args []string, stdout, stderr io.Writer, clock func() time.Time) error {
	if len(args) == 0 {
		return errors.New("usage: tableplay check-docs PATH… (Markdown and HTML files, or folders holding them)")
	}
	all, err := lesson.Load(lessons.Files)
	if err != nil {
		return fmt.Errorf("check-docs: the lessons: %v", err)
	}
	c := &docscheck.Checker{Lessons: all, Clock: clock, ReadFile: func(name string) ([]byte, error) {
		return readBounded(filepath.FromSlash(name))
	}}
	var files []string
	for _, p := range args {
		err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != p && strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
					return filepath.SkipDir
				}
				return nil
			}
			if path == p || docFile(path) {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("check-docs: %v", err)
		}
	}
	examples, failed := 0, 0
	for _, f := range files {
		text, err := readBounded(f)
		if err != nil {
			return fmt.Errorf("check-docs: %v", err)
		}
		n, problems := c.Check(filepath.ToSlash(f), text)
		examples += n
		for _, p := range problems {
			fmt.Fprintln(stdout, p)
		}
		failed += len(problems)
	}
	fmt.Fprintf(stderr, "check-docs: %d examples in %d files, %d problems\n", examples, len(files), failed)
	if failed > 0 {
		return errDocs
	}
	return nil
}

// docFile reports whether a walked file is one check-docs reads.
func docFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".md", ".markdown", ".mdx", ".html", ".htm":
		return true
	}
	return false
}

// readBounded reads a file of at most docscheck.MaxFile bytes.
func readBounded(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, docscheck.MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > docscheck.MaxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, docscheck.MaxFile)
	}
	return b, nil
}
