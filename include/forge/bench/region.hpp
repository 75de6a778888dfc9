// Named regions: how HOST code marks the parts of its timed call that the
// per-kernel table shows as rows (the HOST stand-in for kernel launches).
//
//     void student_layernorm_bwd(...) {
//         { forge::bench::region r{"rebuild_mean_rstd"}; ... }
//         { forge::bench::region r{"grad_input"}; ... }
//     }
//
// Outside the profiled calls a region costs one relaxed atomic load, and
// a few more inside a timed call (the harness notes which regions each one enters).
// Time is exclusive (a nested region's time is not counted again in its parent);
// time in a profiled call outside every region becomes the "(unmarked)" row, so
// the table always adds up to the call's time. Regions are meant for the calling thread: one
// on a thread of the side's own must close before the call returns.
// In a profiled call a region also reads its thread's run-queue wait and the
// process's CPU time at entry and exit (a read of /proc and two clocks each,
// about 13 us a region, in no row), so that its time leaves out what another
// process took from its CPU, as the timed calls' does.
#pragma once

#include <cstdint>

namespace forge::bench {

class region {
public:
    explicit region(const char* name) noexcept;  // the name must outlive the call (a literal)
    ~region();
    region(const region&) = delete;
    region& operator=(const region&) = delete;

private:
    // The thread's clock, its run-queue wait and the process's other threads'
    // CPU time at one moment, or their change over a stretch.
    struct counters {
        std::int64_t ns = 0;
        std::int64_t run_queue_ns = 0;
        std::int64_t other_threads_cpu_ns = 0;
        bool known = true;  // whether the system counts the wait and the CPU time

        counters& operator+=(const counters& other) noexcept;
        counters operator-(const counters& earlier) const noexcept;
    };
    static counters read_counters() noexcept;

    const char* name_;
    counters entry_;             // before the region's time starts
    std::int64_t start_ns_ = 0;
    counters children_;          // the regions nested in this one, entry to exit, summed
    region* parent_ = nullptr;
    bool recording_ = false;
};

}  // namespace forge::bench
