#include "runtime/host/sweep_crew.hpp"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

namespace forge::bench {

namespace {

constexpr std::uint64_t index_bits = 32;
constexpr std::uint64_t index_mask = (std::uint64_t{1} << index_bits) - 1;

constexpr std::size_t shared_from = std::size_t{1} << 20;
// A shared range's parts: 512 KiB or more, at most 16.
constexpr std::size_t shared_part_bytes = std::size_t{512} << 10;
constexpr std::size_t most_shared_parts = 16;

}  // namespace

SweepCrew::SweepCrew(const std::vector<int>& helper_cpus) {
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
    jobs_.fetch_add(1);
    jobs_.notify_all();
    for (std::thread& helper : helpers_) helper.join();
}

void SweepCrew::run(std::size_t parts, const std::function<void(std::size_t)>& part) noexcept {
    if (parts == 0) return;
    job_.store(&part);
    parts_done_.store(0);
    next_.store(static_cast<std::uint64_t>(parts) << index_bits);
    jobs_.fetch_add(1);
    jobs_.notify_all();
    take_parts();
    for (std::size_t done = parts_done_.load(); done < parts; done = parts_done_.load()) parts_done_.wait(done);
}

void SweepCrew::take_parts() noexcept {
    for (;;) {
        const std::uint64_t taken = next_.fetch_add(1);
        const std::uint64_t parts = taken >> index_bits;
        const std::uint64_t index = taken & index_mask;
        if (index >= parts) return;
        (*job_.load())(static_cast<std::size_t>(index));
        if (parts_done_.fetch_add(1) + 1 == parts) parts_done_.notify_one();
    }
}

void SweepCrew::help(int cpu) noexcept {
    cpu_set_t own{};
    CPU_ZERO(&own);
    CPU_SET(cpu, &own);
    // Unpinned, it still shares the jobs, from wherever the scheduler puts it.
    ::pthread_setaffinity_np(::pthread_self(), sizeof own, &own);
    for (unsigned seen = jobs_.load();; seen = jobs_.load()) {
        if (stopping_.load()) return;
        take_parts();
        jobs_.wait(seen);
    }
}

void share_lines(SweepCrew& crew, const std::byte* data, std::size_t bytes,
                 const std::function<void(std::size_t, std::size_t)>& range) noexcept {
    if (bytes < shared_from || crew.threads() == 1) {
        range(0, bytes);
        return;
    }
    const std::size_t parts = std::min(most_shared_parts, bytes / shared_part_bytes);
    const auto base = reinterpret_cast<std::uintptr_t>(data);
    // Where part i starts, on a line boundary: two threads never write one line.
    const auto start = [&](std::size_t i) -> std::size_t {
        if (i == 0) return 0;
        if (i == parts) return bytes;
        const std::uintptr_t at = (base + bytes / parts * i + line_bytes - 1) / line_bytes * line_bytes;
        return std::min<std::size_t>(at - base, bytes);
    };
    crew.run(parts, [&](std::size_t i) { range(start(i), start(i + 1)); });
}

}  // namespace forge::bench
