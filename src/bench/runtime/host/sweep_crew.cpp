#include "runtime/host/sweep_crew.hpp"

#include <pthread.h>
#include <sched.h>

#include <utility>

namespace forge::bench {

SweepCrew::SweepCrew(const std::vector<int>& helper_cpus, std::size_t parts, std::function<void(std::size_t)> part)
    : parts_(parts), part_(std::move(part)), next_part_(parts), parts_done_(parts) {
    helpers_.reserve(helper_cpus.size());
    for (const int cpu : helper_cpus) {
        std::thread& helper = helpers_.emplace_back([this, cpu] { help(cpu); });
        // Named here rather than by the helper: on a busy machine it may not
        // have run yet when someone reads the process's threads.
        ::pthread_setname_np(helper.native_handle(), "forge-sweep");
    }
}

SweepCrew::~SweepCrew() {
    stopping_.store(true);
    sweeps_.fetch_add(1);
    sweeps_.notify_all();
    for (std::thread& helper : helpers_) helper.join();
}

void SweepCrew::sweep() noexcept {
    parts_done_.store(0);
    next_part_.store(0);
    sweeps_.fetch_add(1);
    sweeps_.notify_all();
    take_parts();
    for (std::size_t done = parts_done_.load(); done < parts_; done = parts_done_.load()) parts_done_.wait(done);
}

void SweepCrew::take_parts() noexcept {
    for (std::size_t i = next_part_.fetch_add(1); i < parts_; i = next_part_.fetch_add(1)) {
        part_(i);
        if (parts_done_.fetch_add(1) + 1 == parts_) parts_done_.notify_one();
    }
}

void SweepCrew::help(int cpu) noexcept {
    cpu_set_t own{};
    CPU_ZERO(&own);
    CPU_SET(cpu, &own);
    // Unpinned, it still shares the sweep, from wherever the scheduler puts it.
    ::pthread_setaffinity_np(::pthread_self(), sizeof own, &own);
    for (unsigned seen = sweeps_.load();; seen = sweeps_.load()) {
        if (stopping_.load()) return;
        take_parts();
        sweeps_.wait(seen);
    }
}

}  // namespace forge::bench
