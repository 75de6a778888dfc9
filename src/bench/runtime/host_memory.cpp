#include "runtime/host_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <vector>

namespace forge::bench {

namespace {

constexpr std::size_t alignment = 64;
// Below this a block comes from malloc: too small to move glibc's mmap threshold
// (128 KiB at the least), or for its TLB misses to matter.
constexpr std::size_t mapped_from = std::size_t{64} << 10;
constexpr std::size_t huge_page = std::size_t{2} << 20;

// Ahead of every block, one alignment's worth: where it came from.
struct Header {
    void* start;         // the mapping, or malloc's pointer
    std::size_t length;  // the mapping's length; 0 when from malloc
};
static_assert(sizeof(Header) <= alignment);

// Every mapping from_kernel holds, by its start: a timed call's tensors are
// made and dropped on the timing thread, a sweep's buffer on whichever made it.
class Mappings {
public:
    void add(void* start, std::size_t length) {
        const std::lock_guard<std::mutex> lock(mutex_);
        ends_[reinterpret_cast<std::uintptr_t>(start)] = reinterpret_cast<std::uintptr_t>(start) + length;
    }
    // Two mappings from one: [start, start + length) and the rest of it.
    void split(void* start, std::size_t length) {
        const std::lock_guard<std::mutex> lock(mutex_);
        const auto begin = reinterpret_cast<std::uintptr_t>(start);
        const std::uintptr_t end = ends_.at(begin);
        ends_[begin] = begin + length;
        ends_[begin + length] = end;
    }
    void remove(void* start) {
        const std::lock_guard<std::mutex> lock(mutex_);
        ends_.erase(reinterpret_cast<std::uintptr_t>(start));
    }
    [[nodiscard]] std::vector<AddressRange> ranges() const {
        const std::lock_guard<std::mutex> lock(mutex_);
        std::vector<AddressRange> out;
        out.reserve(ends_.size());
        for (const auto& [begin, end] : ends_) out.push_back({begin, end});
        return out;
    }

private:
    mutable std::mutex mutex_;
    std::map<std::uintptr_t, std::uintptr_t> ends_;
};

// Never destroyed: blocks held by other static objects (a Google Benchmark
// program's registered lambdas) are released by their destructors at exit,
// after this one's would have run.
Mappings& mappings() {
    static auto* const held = new Mappings();
    return *held;
}

std::size_t whole_huge_pages(std::size_t bytes) { return (bytes + huge_page - 1) / huge_page * huge_page; }

// Where the next mapping's block starts in its first huge page (from_kernel):
// a page further on each time.
std::size_t next_stagger() {
    static std::atomic<std::size_t> huge_blocks{0};
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    return huge_blocks++ * page % huge_page;
}

// Mappings given back, kept for the next block that fits one (release_host_block).
// A kept mapping stays among mappings(): it is still the harness's.
class KeptMappings {
public:
    struct Kept {
        void* start;
        std::size_t length;
        std::size_t stagger;  // where its header lies, from its start
    };

    // The smallest whose data fits `bytes` after its header. One with a huge
    // page or more to spare is cut there: the rest stays kept, in its place in
    // the line, so a sweep's or a calibration's buffer given back serves the
    // tensors that follow it instead of new pages faulted in (on a VM whose host
    // backs a huge page anew, 0.5-2.8 s a GiB against 0.16 s for pages the
    // process held before: docs/lab/README.md, "Pages the host backs anew").
    std::optional<Kept> take(std::size_t bytes) {
        const std::lock_guard<std::mutex> lock(mutex_);
        auto best = kept_.end();
        for (auto k = kept_.begin(); k != kept_.end(); ++k) {
            if (k->stagger + alignment + bytes <= k->length && (best == kept_.end() || k->length < best->length)) {
                best = k;
            }
        }
        if (best == kept_.end()) return std::nullopt;
        Kept taken = *best;
        const std::size_t used = whole_huge_pages(taken.stagger + alignment + bytes);
        if (used < taken.length) {
            mappings().split(taken.start, used);  // first: what may throw, before anything is cut
            *best = Kept{static_cast<std::byte*>(taken.start) + used, taken.length - used, next_stagger()};
            taken.length = used;
        } else {
            kept_.erase(best);
        }
        held_bytes_ -= taken.length;
        return taken;
    }

    // The oldest kept mappings, `bytes` of them or all there are, no longer kept.
    std::vector<Kept> shed(std::size_t bytes) {
        const std::lock_guard<std::mutex> lock(mutex_);
        std::vector<Kept> out;
        for (std::size_t shed_bytes = 0; shed_bytes < bytes && !kept_.empty(); kept_.pop_front()) {
            out.push_back(kept_.front());
            shed_bytes += kept_.front().length;
            held_bytes_ -= kept_.front().length;
        }
        return out;
    }

    // Keeps `given`, and returns the mappings to unmap for it to fit (perhaps itself).
    std::vector<Kept> keep(const Kept& given) {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (given.length > most_kept_bytes) return {given};
        std::vector<Kept> unmap;
        unmap.reserve(kept_.size() + 1);  // what may throw, before anything is kept
        kept_.push_back(given);
        held_bytes_ += given.length;
        while (held_bytes_ > most_kept_bytes) {
            unmap.push_back(kept_.front());
            held_bytes_ -= kept_.front().length;
            kept_.pop_front();
        }
        return unmap;
    }

private:
    std::mutex mutex_;
    std::deque<Kept> kept_;
    std::size_t held_bytes_ = 0;
};

KeptMappings& kept_mappings() {
    static auto* const kept = new KeptMappings();  // never destroyed, as mappings()
    return *kept;
}

// Every page of a new mapping faulted in now, outside any window, a part on
// each of a few threads: on a VM a huge page the host must back anew is slow
// to fault in, and faults on several CPUs overlap (docs/lab/README.md, "Pages
// the host backs anew").
void fault_in(std::byte* start, std::size_t length) {
    constexpr std::size_t most_threads = 4;
    constexpr std::size_t least_part = std::size_t{8} << 20;
    const std::size_t parts = std::clamp<std::size_t>(
        std::min<std::size_t>(std::thread::hardware_concurrency(), length / least_part), 1, most_threads);
    const auto part = [&](std::size_t p) {
        const std::size_t begin = whole_huge_pages(length * p / parts);
        const std::size_t end = std::min(length, whole_huge_pages(length * (p + 1) / parts));
        if (begin < end) std::memset(start + begin, 0, end - begin);
    };
    std::vector<std::thread> helpers;
    helpers.reserve(parts - 1);  // what may throw, before a thread runs
    for (std::size_t p = 1; p < parts; ++p) {
        try {
            helpers.emplace_back(part, p);
        } catch (const std::system_error&) {
            part(p);  // no thread to be had: this one faults that part too
        }
    }
    part(0);
    for (std::thread& helper : helpers) helper.join();
}

void unmap(const KeptMappings::Kept& kept) noexcept {
    mappings().remove(kept.start);
    ::munmap(kept.start, kept.length);
}

std::byte* from_malloc(std::size_t bytes) {
    const std::size_t total = (bytes + alignment - 1) / alignment * alignment + alignment;
    void* start = std::aligned_alloc(alignment, total);
    if (start == nullptr) throw std::bad_alloc();
    std::memset(start, 0, total);
    *static_cast<Header*>(start) = Header{start, 0};
    return static_cast<std::byte*>(start) + alignment;
}

std::byte* from_kernel(std::size_t bytes) {
    if (const std::optional<KeptMappings::Kept> kept = kept_mappings().take(bytes)) {
        auto* const header = static_cast<std::byte*>(kept->start) + kept->stagger;
        std::memset(header, 0, alignment + bytes);
        *reinterpret_cast<Header*>(header) = Header{kept->start, kept->length};
        return header + alignment;
    }
    // Each block starts on a huge page boundary: over-map by one, then trim both
    // ends. Its data starts on another page of its first huge page than the last
    // block's: with every block at the same offset in its huge page, a call's
    // input and output streams shared their cache sets in every copy of its
    // tensors, and a streaming side read apart from copy to copy by where the
    // pages fell (docs/lab/ratio-stability.md). But at the same place in that
    // page, as malloc's large blocks all start: where a block's data started
    // in its page (0-4 KiB on, a cache line more per block) moved a call that
    // walks rows of 4 KiB by a fifth to a half, a different bias on every copy
    // of the tensors (docs/lab/README.md, "Where a tensor starts in its page").
    const std::size_t stagger = next_stagger();
    const std::size_t length = whole_huge_pages(bytes + stagger + alignment);
    // No kept mapping fits: as much of them unmapped first, so the new one's
    // pages are those, which the host still backs, not pages it must back anew.
    for (const KeptMappings::Kept& old : kept_mappings().shed(length)) unmap(old);
    void* mapped = ::mmap(nullptr, length + huge_page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mapped == MAP_FAILED) throw std::bad_alloc();
    const auto address = reinterpret_cast<std::uintptr_t>(mapped);
    const std::uintptr_t aligned = (address + huge_page - 1) / huge_page * huge_page;
    if (aligned > address) ::munmap(mapped, aligned - address);
    if (const std::uintptr_t tail = address + huge_page - aligned; tail > 0) {
        ::munmap(reinterpret_cast<void*>(aligned + length), tail);
    }
    auto* start = reinterpret_cast<std::byte*>(aligned);
    // Advice: refused where transparent huge pages are off, and then 4 KiB pages.
    ::madvise(start, length, MADV_HUGEPAGE);
    fault_in(start, length);
    mappings().add(start, length);
    *reinterpret_cast<Header*>(start + stagger) = Header{start, length};
    return start + stagger + alignment;
}

}  // namespace

std::byte* allocate_host_block(std::size_t bytes) {
    bytes = std::max<std::size_t>(bytes, 1);  // every block has an address and a byte
    return bytes + alignment < mapped_from ? from_malloc(bytes) : from_kernel(bytes);
}

void release_host_block(std::byte* block) noexcept {
    if (block == nullptr) return;
    const Header header = *reinterpret_cast<const Header*>(block - alignment);
    if (header.length == 0) std::free(header.start);
    else {
        const auto stagger = static_cast<std::size_t>(block - alignment - static_cast<std::byte*>(header.start));
        const KeptMappings::Kept given{header.start, header.length, stagger};
        try {
            for (const KeptMappings::Kept& old : kept_mappings().keep(given)) unmap(old);
        } catch (const std::bad_alloc&) {
            unmap(given);  // no room to note it down: not kept
        }
    }
}

std::vector<AddressRange> harness_mappings() { return mappings().ranges(); }

}  // namespace forge::bench
