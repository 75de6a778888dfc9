// forge_region_begin / forge_region_end (forge/bench/region.h): C code's regions,
// kept on a stack of forge::bench::region per thread, so that they time, nest
// and record as the C++ ones do. The stack holds its regions in place (no
// allocation inside a timed call); the harness checks after each untimed call
// that the side left it balanced.
#include "forge/bench/region.h"

#include <array>
#include <cstddef>
#include <new>

#include "forge/bench/region.hpp"
#include "runtime/regions.hpp"

namespace forge::bench {

namespace {

constexpr int max_open_c_regions = 64;

class CRegionStack {
public:
    CRegionStack() = default;
    CRegionStack(const CRegionStack&) = delete;
    CRegionStack& operator=(const CRegionStack&) = delete;
    ~CRegionStack() { close_all(); }

    void begin(const char* name) noexcept {
        if (depth_ < max_open_c_regions) new (slot(depth_)) region(name);
        ++depth_;  // past the limit, counted so that its end pairs with it
    }

    void end() noexcept {
        if (depth_ == 0) {
            ++unmatched_ends_;
            return;
        }
        --depth_;
        if (depth_ < max_open_c_regions) std::launder(reinterpret_cast<region*>(slot(depth_)))->~region();
    }

    UnbalancedCRegions take_unbalanced() noexcept {
        const UnbalancedCRegions unbalanced{depth_, unmatched_ends_};
        close_all();
        unmatched_ends_ = 0;
        return unbalanced;
    }

private:
    std::byte* slot(int index) noexcept { return slots_[static_cast<std::size_t>(index)].data(); }

    void close_all() noexcept {
        while (depth_ > 0) end();
    }

    struct alignas(region) Slot : std::array<std::byte, sizeof(region)> {};
    std::array<Slot, max_open_c_regions> slots_;
    int depth_ = 0;  // begun and not ended, those past the limit included
    int unmatched_ends_ = 0;
};

thread_local CRegionStack open_c_regions;

}  // namespace

UnbalancedCRegions take_unbalanced_c_regions() noexcept { return open_c_regions.take_unbalanced(); }

}  // namespace forge::bench

extern "C" void forge_region_begin(const char* name) { forge::bench::open_c_regions.begin(name); }

extern "C" void forge_region_end(void) { forge::bench::open_c_regions.end(); }
