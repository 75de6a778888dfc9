#include "runtime/host/memory_bandwidth.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "runtime/host/sequential_read.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

// `threads` readers, each over its own slice; the best of `passes` in GB/s.
// The pages were all made by one thread, so on a machine of several NUMA
// nodes the readers on the other nodes read remote memory, and the reading by
// every thread comes out lower than local reads would give.
double best_read_gbps(std::uint64_t* words, std::size_t count, unsigned threads, int passes) {
    const std::size_t slice = count / threads;
    double best = 0.0;
    for (int pass = 0; pass < passes; ++pass) {
        std::vector<std::thread> readers;
        std::vector<std::uint64_t> sums(threads, 0);
        std::atomic_int ready{0};
        std::atomic_bool go{false};
        std::int64_t start = 0;
        for (unsigned t = 0; t < threads; ++t) {
            readers.emplace_back([&, t] {
                ready.fetch_add(1);
                while (!go.load()) std::this_thread::yield();
                sums[t] = read_words(words + t * slice, slice);
            });
        }
        while (ready.load() < static_cast<int>(threads)) std::this_thread::yield();
        start = now_ns();
        go.store(true);
        for (std::thread& reader : readers) reader.join();
        const double seconds = static_cast<double>(now_ns() - start) * 1e-9;
        [[maybe_unused]] volatile std::uint64_t sink = 0;
        for (std::uint64_t sum : sums) sink = sink + sum;
        const double bytes = static_cast<double>(slice * threads * sizeof(std::uint64_t));
        if (seconds > 0.0) best = std::max(best, bytes / seconds * 1e-9);
    }
    return best;
}

}  // namespace

MemoryBandwidth measure_memory_bandwidth(std::size_t bytes) {
    const std::size_t count = bytes / sizeof(std::uint64_t);
    // On the pages the sides' tensors get (host_memory.hpp), each written when
    // it was mapped, so none is the kernel's shared zero page.
    const std::unique_ptr<std::byte, decltype(&release_host_block)> block(allocate_host_block(bytes),
                                                                          &release_host_block);
    auto* words = reinterpret_cast<std::uint64_t*>(block.get());
    constexpr int passes = 3;
    MemoryBandwidth out;
    out.bytes = count * sizeof(std::uint64_t);
    const unsigned all = std::max(1U, std::thread::hardware_concurrency());
    for (unsigned threads : {1U, all}) {
        const double gbps = best_read_gbps(words, count, threads, passes);
        if (gbps > out.gbps) {
            out.gbps = gbps;
            out.threads = threads;
        }
        if (all == 1) break;
    }
    return out;
}

}  // namespace forge::bench
