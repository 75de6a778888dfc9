// Helper threads that share the timing thread's memory-bound work between
// HOST calls: the cache sweep, and the loads, evictions and output checks
// around each call.
//
// A sweep of twice the last-level cache is bound by how many misses one core
// keeps in flight, not by the memory: where a VM reports a 480 MiB L3, one core
// read-modify-wrote the 960 MiB sweep in 75 ms and two cores in 40 ms
// (docs/lab/README.md); a 16 MiB comparison took 1.7 ms on one core and 1.1 ms
// on two. Each helper is pinned to a CPU of its own beside the timing
// thread's, so its share of the sweep also evicts that CPU's private caches,
// where a side's other threads run. Between jobs the helpers sleep on a futex,
// so they take no CPU time from the timed calls.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace forge::bench {

// The cache line of every x86-64 CPU and of most AArch64 ones: the step of an
// eviction (smaller steps only flush a line twice) and where shared ranges are cut.
inline constexpr std::size_t line_bytes = 64;

class SweepCrew {
public:
    // The calling thread and one helper pinned to each CPU of `helper_cpus`.
    explicit SweepCrew(const std::vector<int>& helper_cpus);
    ~SweepCrew();
    SweepCrew(const SweepCrew&) = delete;
    SweepCrew& operator=(const SweepCrew&) = delete;

    // Calls part(i) once for every i in [0, parts) and returns when all have
    // returned. Parts go one at a time to whichever thread is free, so a helper
    // whose CPU a neighbour holds leaves its share to the others instead of
    // holding up the job.
    void run(std::size_t parts, const std::function<void(std::size_t)>& part) noexcept;

    // The threads a job runs on: the helpers and the calling thread.
    [[nodiscard]] std::size_t threads() const noexcept { return helpers_.size() + 1; }

private:
    void take_parts() noexcept;
    void help(int cpu) noexcept;

    // The job's part count in the high half, the next part to hand out in the
    // low: one fetch_add gives a part and the job it belongs to, so a helper
    // late from the job before can only take a part of this one, and it counts
    // here. `job_` is set before the word, and a job ends only once all its parts
    // have, so a part reads its own job's.
    std::atomic<std::uint64_t> next_{0};
    std::atomic<const std::function<void(std::size_t)>*> job_{nullptr};
    std::atomic<std::size_t> parts_done_{0};
    std::atomic<unsigned> jobs_{0};  // the helpers wait for it to move
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> helpers_;
};

// Cuts [data, data + bytes) at cache-line boundaries into parts for `crew`
// and calls range(begin, end) on each, offsets from `data`: the threads then
// share a copy, an eviction or a comparison. Under 1 MiB, one range on the
// calling thread: waking a helper costs more than it saves.
void share_lines(SweepCrew& crew, const std::byte* data, std::size_t bytes,
                 const std::function<void(std::size_t, std::size_t)>& range) noexcept;

}  // namespace forge::bench
