package main

import (
	"fmt"
	"strconv"
	"time"
)

// config is the deployment's settings, from the Worker's environment.
type config struct {
	secret []byte        // ROOM_SECRET: the keys derive from it
	idle   time.Duration // ROOM_IDLE_SECONDS: a room idle this long is deleted
	limits limits        // ROOM_MAX_ENTITIES, ROOM_MAX_BYTES, ROOM_RPS
	// ROOM_CREATE_PER_CLIENT, ROOM_CREATE_TOTAL: rooms created an hour by
	// one client and by all (0 is no bound)
	createPerClient, createTotal int64
}

// Defaults: a week of idleness; room for a class's or a docs reader's data
// (20,000 entities, 16 MiB), well inside an isolate's 128 MB with the
// engine's copy in memory; 100 requests a second, thirty people clicking
// at once with room to spare (docs/hosting.md).
const (
	defaultIdle     = 7 * 24 * time.Hour
	defaultEntities = 20_000
	defaultBytes    = 16 << 20
	defaultRPS      = 100
	// A class of thirty behind one address makes thirty rooms at most in
	// a lesson's first minutes; the total keeps a flood from many
	// addresses to what the plan's storage and memory take (docs/hosting.md).
	defaultCreatePerClient = 30
	defaultCreateTotal     = 600
)

// readConfig reads the settings through getenv; a setting that is set but
// not a whole number ≥ 0 is an error, so a typo does not lift a limit.
func readConfig(getenv func(string) string) (config, error) {
	c := config{secret: []byte(getenv("ROOM_SECRET"))}
	n := func(name string, def int64) (int64, error) {
		s := getenv(name)
		if s == "" {
			return def, nil
		}
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 0 {
			return 0, fmt.Errorf("%s=%q: want a whole number ≥ 0", name, s)
		}
		return v, nil
	}
	idle, err := n("ROOM_IDLE_SECONDS", int64(defaultIdle/time.Second))
	if err != nil {
		return c, err
	}
	if idle == 0 {
		return c, fmt.Errorf("ROOM_IDLE_SECONDS=0: every room expires; give the idle time in seconds")
	}
	c.idle = time.Duration(idle) * time.Second
	if c.limits.Entities, err = n("ROOM_MAX_ENTITIES", defaultEntities); err != nil {
		return c, err
	}
	if c.limits.Bytes, err = n("ROOM_MAX_BYTES", defaultBytes); err != nil {
		return c, err
	}
	if c.limits.RPS, err = n("ROOM_RPS", defaultRPS); err != nil {
		return c, err
	}
	if c.createPerClient, err = n("ROOM_CREATE_PER_CLIENT", defaultCreatePerClient); err != nil {
		return c, err
	}
	if c.createTotal, err = n("ROOM_CREATE_TOTAL", defaultCreateTotal); err != nil {
		return c, err
	}
	return c, nil
}
