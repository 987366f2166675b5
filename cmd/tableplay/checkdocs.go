package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
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
	type doc struct{ path, root string }
	var files []doc
	for _, p := range args {
		root := p
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			root = filepath.Dir(p)
		}
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
				files = append(files, doc{path, root})
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("check-docs: %v", err)
		}
	}
	examples, failed := 0, 0
	checkers := map[string]*docscheck.Checker{}
	current := "" // the folder of the file being checked
	for _, f := range files {
		text, err := readBounded(f.path)
		if err != nil {
			return fmt.Errorf("check-docs: %v", err)
		}
		current = filepath.Dir(f.path)
		c := checkers[f.root]
		if c == nil {
			root := f.root
			c = &docscheck.Checker{Lessons: all, InLanguage: docscheck.LessonsIn, Clock: clock, ReadFile: func(name string) ([]byte, error) {
				inside, err := within(root, current, name)
				if err != nil {
					return nil, err
				}
				return readBounded(inside)
			}}
			checkers[f.root] = c
		}
		n, problems := c.Check(filepath.ToSlash(f.path), text)
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

// within is the file a src= start state names (name: resolved against
// dir, the checked file's folder, or an absolute src, which is taken from
// the docs root as a site serves it), or an error when it lies outside the
// docs root (the folder given, or the given file's folder), through ".."
// or a symbolic link: check-docs reads nothing of the machine but the docs
// it was pointed at.
func within(root, dir, name string) (string, error) {
	p := filepath.FromSlash(name)
	if filepath.IsAbs(p) && !strings.HasPrefix(p, dir+string(filepath.Separator)) {
		p = filepath.Join(root, p)
	}
	top, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", fmt.Errorf("%s: no such file in the docs folder", name)
	}
	if top, err = filepath.Abs(top); err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(top, real); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the docs folder %s", name, root)
	}
	return real, nil
}

// readBounded reads a regular file of at most docscheck.MaxFile bytes. It
// opens without blocking and refuses anything but a regular file (a FIFO,
// a device, /dev/stdin), which could hang the check or never end.
func readBounded(name string) ([]byte, error) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	b, err := io.ReadAll(io.LimitReader(f, docscheck.MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > docscheck.MaxFile {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, docscheck.MaxFile)
	}
	return b, nil
}
