// Package persist keeps the native server's account on disk: an append-only
// log of committed changes, replayed on start and compacted into a snapshot
// in the background.
//
// A data directory holds log segments (log-<generation>), at most one
// current snapshot (snapshot-<generation>) and a LOCK file. Every change the
// store commits is one record: a frame of its length, a CRC-32C of length and
// payload, and the payload (a change record of core/store). Records are
// written and fsynced by whichever waiting writer comes first, for everyone
// who recorded before it (group commit), and a write is answered only after
// its record is durable.
//
// Compaction rotates to segment G, takes the store's snapshot while writes go
// on into segment G, waits until the log holds everything the snapshot
// holds, writes snapshot-G atomically (temporary file, fsync, rename, fsync of
// the directory) and removes what came before G. Start-up loads the newest
// snapshot and replays the segments from its generation on; change records
// set state outright, so replaying writes the snapshot already reflects
// gives the same account.
//
// A crash can leave the newest segment with a torn or unflushed tail: the
// first frame that is incomplete or fails its checksum ends the log. That
// tail is cut off (the file truncated and fsynced) and reported, never
// loaded; only records nobody was told had succeeded can be in it. Damage
// anywhere else (an older segment, the snapshot, a missing segment, a record
// the store refuses) stops the start with an error naming the file, rather
// than silently losing acknowledged writes.
//
// The package is only for native builds: it uses files, and core stays free
// of them so that it compiles for js/wasm.
package persist
