#include "device_profile.hpp"

#include <algorithm>

namespace forge::bench {

Profile profile_of(const std::vector<DeviceActivity>& records, WindowEndMarker marker) {
    const DeviceActivity* window_end = nullptr;
    for (const DeviceActivity& record : records) {
        const bool marks = record.kind == DeviceActivity::Kind::memset && record.bytes == marker.bytes &&
                           record.value == marker.value;
        if (marks && (window_end == nullptr || record.start_ns > window_end->start_ns)) window_end = &record;
    }
    Profile profile;
    std::vector<KernelRow> rows;
    for (const DeviceActivity& record : records) {
        if (&record == window_end) continue;
        rows.push_back(KernelRow{record.name, 1, record.duration_ns(), 0.0});
        if (record.kind == DeviceActivity::Kind::kernel) profile.launched.insert(record.name);
        if (window_end != nullptr && record.end_ns > window_end->start_ns) {
            const auto after = static_cast<double>(record.end_ns - window_end->start_ns);
            if (after > late_slack_ns) profile.late.push_back(LateWork{record.name, after});
        }
    }
    std::stable_sort(profile.late.begin(), profile.late.end(),
                     [](const LateWork& a, const LateWork& b) { return a.ns_after_window_end > b.ns_after_window_end; });
    profile.kernels = merge_by_name(std::move(rows));
    profile.kernels.profiler = ProfilerDigest{profile.kernels.total_ns(), 1};
    return profile;
}

}  // namespace forge::bench
