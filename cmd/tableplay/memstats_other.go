//go:build !unix

package main

import "io"

// watchMemstats does nothing where there is no SIGUSR1.
func watchMemstats(func(string) string, io.Writer) func() { return func() {} }
