// Named regions: how HOST code marks the parts of its timed call that the
// per-kernel table shows as rows (the HOST stand-in for kernel launches).
//
//     void student_layernorm_bwd(...) {
//         { forge::bench::region r{"rebuild_mean_rstd"}; ... }
//         { forge::bench::region r{"grad_input"}; ... }
//     }
//
// Outside the one profiled call per side a region costs one relaxed atomic load, and
// a few more inside a timed call (the harness notes which regions each one enters).
// Time is exclusive (a nested region's time is not counted again in its parent);
// time in the profiled call outside every region becomes the "(unmarked)" row, so
// the table always adds up to the call. Regions are meant for the calling thread.
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
    const char* name_;
    std::int64_t start_ns_ = 0;
    std::int64_t child_ns_ = 0;  // time spent in regions nested in this one
    region* parent_ = nullptr;
    bool recording_ = false;
};

}  // namespace forge::bench
