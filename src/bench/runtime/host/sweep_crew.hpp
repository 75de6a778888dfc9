// Helper threads that share a HOST cache sweep with the timing thread.
//
// A sweep of twice the last-level cache is bound by how many misses one core
// keeps in flight, not by the memory: where a VM reports a 480 MiB L3, one core
// read-modify-wrote the 960 MiB sweep in 75 ms and two cores in 40 ms
// (docs/lab/README.md). Each helper is pinned to a CPU of its own beside the
// timing thread's, so its share of the sweep also evicts that CPU's private
// caches, where a side's other threads run. Between sweeps the helpers sleep
// on a futex, so they take no CPU time from the timed calls.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace forge::bench {

class SweepCrew {
public:
    // A sweep of `parts` calls of `part(i)`, i in [0, parts), shared by the
    // calling thread and one helper pinned to each CPU of `helper_cpus`.
    SweepCrew(const std::vector<int>& helper_cpus, std::size_t parts, std::function<void(std::size_t)> part);
    ~SweepCrew();
    SweepCrew(const SweepCrew&) = delete;
    SweepCrew& operator=(const SweepCrew&) = delete;

    // Calls every part once and returns when all have returned. Parts go one at
    // a time to whichever thread is free, so a helper whose CPU a neighbour
    // holds leaves its share to the others instead of holding up the sweep.
    void sweep() noexcept;

    // The threads a sweep runs on: the helpers and the calling thread.
    [[nodiscard]] std::size_t threads() const noexcept { return helpers_.size() + 1; }

private:
    void take_parts() noexcept;
    void help(int cpu) noexcept;

    const std::size_t parts_;
    const std::function<void(std::size_t)> part_;
    // A sweep resets `parts_done_` before `next_part_`, so a helper late from
    // the sweep before can only take a part of this one, and it counts here.
    std::atomic<std::size_t> next_part_{0};
    std::atomic<std::size_t> parts_done_{0};
    std::atomic<unsigned> sweeps_{0};  // the helpers wait for it to move
    std::atomic<bool> stopping_{false};
    std::vector<std::thread> helpers_;
};

}  // namespace forge::bench
