#include "runtime/host/timing_thread.hpp"

#include <unistd.h>

#include <charconv>
#include <filesystem>
#include <string>
#include <system_error>

namespace forge::bench {

TimingThreadPin::TimingThreadPin() : timing_thread_(::gettid()) {
    if (::sched_getaffinity(0, sizeof process_cpus_, &process_cpus_) != 0) return;
    const int cpu = ::sched_getcpu();
    if (cpu < 0) return;
    CPU_ZERO(&pinned_);
    CPU_SET(cpu, &pinned_);
    if (::sched_setaffinity(0, sizeof pinned_, &pinned_) != 0) return;
    cpu_ = cpu;
    if (::pthread_getattr_default_np(&earlier_default_attributes_) != 0) return;
    pthread_attr_t side_threads;
    if (::pthread_getattr_default_np(&side_threads) != 0) {
        ::pthread_attr_destroy(&earlier_default_attributes_);
        return;
    }
    default_attributes_changed_ =
        ::pthread_attr_setaffinity_np(&side_threads, sizeof process_cpus_, &process_cpus_) == 0 &&
        ::pthread_setattr_default_np(&side_threads) == 0;
    ::pthread_attr_destroy(&side_threads);
    if (!default_attributes_changed_) ::pthread_attr_destroy(&earlier_default_attributes_);
}

std::vector<int> TimingThreadPin::other_cpus(std::size_t most) const {
    std::vector<int> out;
    if (cpu_ < 0) return out;
    for (int cpu = 0; cpu < CPU_SETSIZE && out.size() < most; ++cpu) {
        if (cpu != cpu_ && CPU_ISSET(cpu, &process_cpus_)) out.push_back(cpu);
    }
    return out;
}

TimingThreadPin::~TimingThreadPin() {
    if (default_attributes_changed_) {
        ::pthread_setattr_default_np(&earlier_default_attributes_);
        ::pthread_attr_destroy(&earlier_default_attributes_);
    }
    if (cpu_ >= 0) ::sched_setaffinity(0, sizeof process_cpus_, &process_cpus_);
}

std::size_t TimingThreadPin::release_side_threads() {
    if (cpu_ < 0 || CPU_EQUAL(&pinned_, &process_cpus_)) return 0;
    std::size_t released = 0;
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        const std::string name = task.path().filename().string();
        pid_t thread = 0;
        if (std::from_chars(name.data(), name.data() + name.size(), thread).ec != std::errc{}) continue;
        if (thread == timing_thread_) continue;
        cpu_set_t cpus;
        // A thread that ended meanwhile fails both calls, and is no longer there to release.
        if (::sched_getaffinity(thread, sizeof cpus, &cpus) != 0 || !CPU_EQUAL(&cpus, &pinned_)) continue;
        if (::sched_setaffinity(thread, sizeof process_cpus_, &process_cpus_) == 0) ++released;
    }
    released_ += released;
    return released;
}

}  // namespace forge::bench
