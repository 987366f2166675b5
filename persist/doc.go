// Package persist keeps the native server's account on disk: an append-only
// log of committed changes, replayed on start and compacted into a snapshot
// in the background.
//
// A data directory holds log segments (log-<generation>), at most one
// current snapshot (snapshot-<generation>) and a LOCK file. A segment begins
// with a magic; every change the store commits is one record frame in it:
// the payload's length, the record's sequence number, the offset where the
// write holding the frame began, the CRC-32C of the payload and of the
// header, and the payload (a change record of core/store). Records are
// written and fsynced by whichever waiting writer comes first, for everyone
// who recorded before it (group commit), and a write is answered only after
// its record is durable. A segment ends with a seal, a frame of no payload
// written on its own once everything before it is durable: when the log
// rotates, when the server stops cleanly, and at start for a segment a
// crash left unsealed. A segment begins, after the magic, with a head: a
// frame naming the last record before it and why it was made. A head made
// once every record before it was durable — at start, and at a clean stop,
// which makes the next segment before its seal for the next start to take
// up (rewriting the head in place) and write on in — says where the
// previous segment's records end, so a newest segment cut short at a frame
// boundary stops the start; a kill before the seal loses nothing. A seal
// written once the next segment exists (a clean stop's, a rotation's, the
// start's) says so: a segment that must have a successor, found with none
// or with one lacking its head, stops the start too.
//
// A directory that takes no writes (a page written and fsynced there at
// start fails: a full disk, a read-only file system) is loaded read-only:
// no file is changed (a torn tail is left, not loaded), and Writable tells
// the store to refuse every change before making it.
//
// Compaction rotates to segment G, streams the store's snapshot into a
// temporary file while writes go on into segment G — table by table, each
// from one consistent view of its copy-on-write tree, so it holds no copy
// of the account — waits until the log holds everything the snapshot holds,
// then makes it snapshot-G atomically (fsync, rename, fsync of the
// directory) and removes what came before G. A clean stop compacts too when
// the live segment has grown past Options.CloseCompactBytes. Start-up loads
// the newest snapshot and replays the segments from its generation on;
// change records set state outright, so replaying writes the snapshot
// already reflects gives the same account.
//
// A snapshot is a magic, then the store's blocks (an account block, a block
// per table, blocks of its entities in key order, an end block counting
// them), each a frame: the payload's length, the CRC-32C of length and
// payload, and the payload. It is loaded one block at a time straight into
// new trees, and installed only once the end block has come and every frame,
// value and count checked: any damage stops the start with the file and
// offset, never a partial account. A snapshot of the format before blocks
// (one frame of the account's JSON document) still loads.
//
// A crash can leave the log's last write torn or unflushed, and nothing
// else: a write starts only once the one before it is durable. So a bad
// frame is a torn tail only when no intact frame of a later write follows
// it, in its segment (a frame's write offset says which write it belongs
// to) or in a newer one, and no seal does; such a tail is cut off (the file
// truncated and fsynced), reported, and never loaded. Anything else — a bad
// frame followed by a later write, a sealed segment with more after its
// seal, an unsealed one followed by writes (cut short at a frame boundary),
// a record out of sequence, an older damaged segment, the snapshot, a
// missing segment, a record the store refuses — stops the start with an
// error naming the file and the offset and saying how to start with the
// intact part, and changes nothing.
//
// Segments written before the magic existed (bare frames: length, CRC-32C,
// payload) still load; a bad frame in one is a torn tail only when no intact
// frame follows it. New records always go to a new segment.
//
// The package is only for native builds: it uses files, and core stays free
// of them so that it compiles for js/wasm.
package persist
