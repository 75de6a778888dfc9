// The sides' own memory out of the caches before a call, as their tensors are.
//
// A side keeps state between calls outside its tensors: a workspace made in
// its setup, a library's packed buffers, its heap and static data. A sweep
// evicts such state only where the last-level cache replaces lines by age:
// on a Xeon VM whose L3 keeps re-used lines through a stream, a 4 MiB set read
// only 18-37% of the way from warm to evicted after a 1 GiB sweep, and a 256
// MiB one left more of rope_fwd's reference workspace warm, 5-10% of its time,
// the more the further a round was from the last fresh draw (which moves tens
// of MiB and evicts it) (docs/lab/README.md). Flushing that memory line by
// line makes it cold on any cache, and leaves the sweep only the code and
// read-only data to evict.
#pragma once

#include <cstddef>

namespace forge::bench {

// Writes back and drops every resident line of the process's private writable
// memory (/proc/self/maps: rw-p: heap, stacks, anonymous mappings, static
// data) outside the harness's own mappings (harness_mappings()), whichever
// side it belongs to; regions over 64 GiB are address space reserved (a
// sanitizer's shadow) and left out. Returns the bytes flushed; 0 where lines
// cannot be flushed one by one (evicts_lines) or the maps cannot be read.
//
// Between calls: a side's thread that unmaps memory while this runs can take
// it away between the read of the maps and its flush, and the flush then
// faults (docs/design/threat-model.md).
std::size_t evict_side_memory();

}  // namespace forge::bench
