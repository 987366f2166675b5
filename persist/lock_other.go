//go:build !unix

package persist

import "io"

type noLock struct{}

// Close releases nothing: there is no lock.
func (noLock) Close() error { return nil }

// lockDir does nothing where flock is not available: run one server per
// data directory.
func lockDir(string) (io.Closer, error) { return noLock{}, nil }
