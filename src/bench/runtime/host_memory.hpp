// The harness's host memory for tensors, kept off the process heap.
//
// A side's call allocates from the same glibc heap as the harness. glibc moves
// its mmap threshold and trims its heap by what was freed before, so harness
// tensors made and dropped around a call decided whether the call's own scratch
// tensor was served from pages already mapped or faulted in afresh on every
// call, and its time differed from one process to the next. Large blocks
// therefore come straight from the kernel (mmap), on huge pages where it allows
// them (transparent huge pages in `madvise` mode): a streaming side otherwise
// read apart by which 4 KiB pages each copy of its tensors happened to get; and
// each starts at another offset in its huge page, so two tensors' addresses
// never align alike. Blocks under a huge page get one of their own too: on 4 KiB
// pages a small tensor's call now and then read slower after the cache flush
// (its TLB entries evicted, and each walk of a VM's nested page tables going to
// memory); on a huge page, never. The rule: docs/design/measurement.md ("The
// harness stays off the sides' heap"); the figures: docs/lab/README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace forge::bench {

// At least `bytes` (never zero) of zero-filled host memory, 64-byte aligned.
[[nodiscard]] std::byte* allocate_host_block(std::size_t bytes);

// Gives back a block from allocate_host_block (nullptr: nothing). A mapped one
// is kept for a later block it fits, up to `most_kept_bytes` of them, the
// oldest unmapped first: a fresh round's inputs are made and dropped all run
// long, and each new mapping had its pages faulted in and zeroed again. A
// later block smaller than a kept mapping is cut from it; one that none fits
// is mapped after the oldest kept ones, as many bytes as it needs, are
// unmapped, so its pages can be theirs.
void release_host_block(std::byte* block) noexcept;

inline constexpr std::size_t most_kept_bytes = std::size_t{512} << 20;

// [begin, end) of one mapping.
struct AddressRange {
    std::uintptr_t begin = 0;
    std::uintptr_t end = 0;
};

// The mappings allocate_host_block holds now (blocks from malloc are not among
// them), in address order: the harness's own memory, which evict_side_memory
// (host/side_memory.hpp) leaves alone.
[[nodiscard]] std::vector<AddressRange> harness_mappings();

}  // namespace forge::bench
