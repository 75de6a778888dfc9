// The HOST cache flush: the L3 a machine reports may be the package's, not
// what one core fills, so the sweep a round needs is measured, and a flush of
// twice that evicts a working set the timing thread warmed; the sides' own
// memory is flushed line by line, the harness's left alone; a call's inputs
// are loaded past the caches.
#define BOOST_TEST_MODULE bench_cache_flush
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "forge/stats/summary.hpp"
#include "runtime/host/cache_flush.hpp"
#include "runtime/host/flush_probe.hpp"
#include "runtime/host/side_memory.hpp"
#include "runtime/host/timing_thread.hpp"
#include "runtime/host/uncached_copy.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/timer.hpp"

namespace fb = forge::bench;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

// A pointer chase over `bytes` of the heap, one step a cache line in random order.
std::vector<std::uint64_t> chase(std::size_t bytes) {
    const std::size_t lines = bytes / 64;
    std::vector<std::size_t> order(lines);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(7));
    std::vector<std::uint64_t> next(lines * 8, 0);
    for (std::size_t i = 0; i < lines; ++i) next[order[i] * 8] = order[(i + 1) % lines] * 8;
    return next;
}

double walk_ms(const std::vector<std::uint64_t>& next) {
    const std::int64_t start = fb::now_ns();
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < next.size() / 8; ++i) at = next[at];
    const std::int64_t stop = fb::now_ns();
    [[maybe_unused]] volatile std::uint64_t sink = at;
    return static_cast<double>(stop - start) * 1e-6;
}

// Medians of 7 walks of `next` warm and 7 right after `make_cold`, up to
// three tries until the walks after read FlushProbe::effective_slowdown times
// the warm ones, as probe_flush: a neighbour streaming through a shared L3 (the
// other tests beside these) can make even the warm walks slow.
struct Walks {
    double warm_ms = 0.0;
    double after_ms = 0.0;
    [[nodiscard]] bool cold() const {
        return warm_ms > 0.0 && after_ms >= fb::FlushProbe::effective_slowdown * warm_ms;
    }
};

Walks walks_warm_and_after(const std::vector<std::uint64_t>& next, const std::function<void()>& make_cold) {
    Walks walks;
    for (int attempt = 0; attempt < 3 && !walks.cold(); ++attempt) {
        std::vector<double> warm;
        std::vector<double> after;
        for (int t = 0; t < 7; ++t) {
            (void)walk_ms(next);
            warm.push_back(walk_ms(next));
            make_cold();
            after.push_back(walk_ms(next));
        }
        walks = {forge::stats::median(warm), forge::stats::median(after)};
    }
    return walks;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_measured_sweep_is_the_smallest_that_evicted_and_twice_it_flushes) {
    const fb::TimingThreadPin pin;
    const std::vector<int> helpers = pin.other_cpus(3);
    // As if the machine reported a 1 GiB L3, as a VM's CPUID can for a package.
    const std::optional<fb::SweepReach> reach = fb::measure_sweep_reach(1024 * mib, helpers);
    if (!reach) {
        BOOST_TEST_MESSAGE("no sweep below 1 GiB evicted the working set on this machine: its L3 reaches that far");
        return;
    }
    BOOST_TEST(reach->bytes >= 4 * mib);
    BOOST_TEST(reach->bytes < 1024 * mib);
    BOOST_TEST((reach->bytes & (reach->bytes - 1)) == 0u);  // 4 MiB doubled
    BOOST_TEST(reach->evicted_ms >= fb::FlushProbe::effective_slowdown * reach->warm_ms);
    BOOST_TEST_REQUIRE(!reach->readings.empty());
    for (std::size_t i = 0; i < reach->readings.size(); ++i) {
        const fb::SweepReach::Reading& r = reach->readings[i];
        BOOST_TEST(r.bytes == (4 * mib) << i);
        // Every sweep tried before the last left the working set partly cached.
        BOOST_TEST((r.evicted_fraction >= fb::evicted_way) == (i + 1 == reach->readings.size()));
    }
    BOOST_TEST(reach->readings.back().bytes == reach->bytes);

    // What the rounds rely on: a flush of twice the measured sweep evicts.
    fb::CacheFlusher flusher(2 * reach->bytes, helpers);
    const fb::FlushProbe probe = fb::probe_flush(flusher, reach->bytes);
    BOOST_TEST(probe.effective(), "warm " << probe.warm_ms << " ms, after the flush " << probe.flushed_ms << " ms");
}

BOOST_AUTO_TEST_CASE(with_no_sweep_below_the_reported_cache_to_try_none_is_measured) {
    const fb::TimingThreadPin pin;
    BOOST_TEST(!fb::measure_sweep_reach(4 * mib, pin.other_cpus(3)).has_value());
}

BOOST_AUTO_TEST_CASE(the_cache_to_sweep_is_measured_below_the_reported_one) {
    const fb::CacheToSweep swept = fb::cache_to_sweep({});
    BOOST_TEST(swept.reported.bytes == fb::last_level_cache().bytes);
    if (swept.reach) {
        BOOST_TEST(swept.cache().source == "measured");
        BOOST_TEST(swept.cache().bytes == swept.reach->bytes);
        BOOST_TEST(swept.cache().bytes < swept.reported.bytes);
    } else {
        BOOST_TEST(swept.cache().bytes == swept.reported.bytes);
        BOOST_TEST(swept.cache().source == swept.reported.source);
    }
}

// A side's state outside its tensors (a heap vector, walked twice as a call
// re-reading its workspace would) reads from memory after the flush of the
// sides' memory, whatever the last-level cache keeps through a sweep. 512 KiB,
// held by a core's L2, so a neighbour in the shared L3 leaves its warm walks
// warm.
BOOST_AUTO_TEST_CASE(a_sides_state_reads_from_memory_after_the_sides_memory_is_flushed) {
    if (!fb::evicts_lines) return;
    const fb::TimingThreadPin pin;
    const std::vector<std::uint64_t> state = chase(mib / 2);
    const Walks walks = walks_warm_and_after(state, [] { BOOST_TEST(fb::evict_side_memory() >= mib / 2); });
    BOOST_TEST(walks.cold(), "warm " << walks.warm_ms << " ms, after the flush " << walks.after_ms << " ms");
}

// The harness's own blocks (tensors, the sweep's buffer) are not the sides':
// a 256 MiB block adds nothing to what is flushed, held or given back and kept.
BOOST_AUTO_TEST_CASE(the_harness_blocks_are_left_out_of_the_sides_memory) {
    if (!fb::evicts_lines) return;
    const std::size_t before = fb::evict_side_memory();
    std::byte* block = fb::allocate_host_block(256 * mib);  // zero-filled: every page resident
    const auto holds_block = [at = reinterpret_cast<std::uintptr_t>(block)](const fb::AddressRange& r) {
        return r.begin <= at && at < r.end;
    };
    const std::vector<fb::AddressRange> held = fb::harness_mappings();
    BOOST_TEST(std::any_of(held.begin(), held.end(), holds_block));
    const std::size_t with_block = fb::evict_side_memory();
    fb::release_host_block(block);
    BOOST_TEST(with_block < before + 16 * mib, before / mib << " MiB, with the block " << with_block / mib << " MiB");
    const std::size_t given_back = fb::evict_side_memory();
    BOOST_TEST(given_back < before + 16 * mib, before / mib << " MiB, after the block " << given_back / mib << " MiB");
}

// A call's inputs are loaded by copy_uncached: every byte, whatever the two
// ends' alignment and length (streaming stores need 16-byte aligned ones),
// and not one byte either side of the destination.
BOOST_AUTO_TEST_CASE(an_uncached_copy_copies_every_byte_at_any_alignment) {
    std::mt19937_64 bits(3);
    constexpr std::size_t room = mib + 256;
    std::vector<std::byte> from(room);
    for (std::byte& b : from) b = static_cast<std::byte>(bits());
    for (const std::size_t bytes : {0UL, 1UL, 15UL, 16UL, 17UL, 63UL, 64UL, 65UL, 4096UL + 7, mib + 3}) {
        for (std::size_t to_offset = 0; to_offset < 18; ++to_offset) {
            const std::size_t from_offset = (to_offset * 7) % 19;
            std::vector<std::byte> to(room, std::byte{0xAA});
            fb::copy_uncached(to.data() + 64 + to_offset, from.data() + from_offset, bytes);
            const auto first = to.begin() + static_cast<std::ptrdiff_t>(64 + to_offset);
            const auto last = first + static_cast<std::ptrdiff_t>(bytes);
            BOOST_TEST_REQUIRE(std::equal(first, last, from.begin() + static_cast<std::ptrdiff_t>(from_offset)),
                               bytes << " bytes to offset " << to_offset);
            const auto untouched = [](std::byte b) { return b == std::byte{0xAA}; };
            BOOST_TEST_REQUIRE(std::all_of(to.begin(), first, untouched));
            BOOST_TEST_REQUIRE(std::all_of(last, to.end(), untouched));
        }
    }
}

// The copy leaves its destination in memory, not in a cache: a walk of it
// right after reads as after a flush. 512 KiB, as the side memory's test above.
BOOST_AUTO_TEST_CASE(an_uncached_copys_destination_reads_from_memory) {
    if (!fb::evicts_lines) return;
    const fb::TimingThreadPin pin;
    const std::vector<std::uint64_t> source = chase(mib / 2);
    std::vector<std::uint64_t> loaded(source.size());
    const auto load = [&] {
        fb::copy_uncached(reinterpret_cast<std::byte*>(loaded.data()),
                          reinterpret_cast<const std::byte*>(source.data()), source.size() * sizeof(std::uint64_t));
    };
    load();
    BOOST_TEST_REQUIRE((loaded == source));
    const Walks walks = walks_warm_and_after(loaded, load);
    BOOST_TEST(walks.cold(), "warm " << walks.warm_ms << " ms, right after the copy " << walks.after_ms << " ms");
}
