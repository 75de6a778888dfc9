#include "device_profile.hpp"

#include <algorithm>
#include <optional>

namespace forge::bench {

namespace {

// Where the window starts and ends on CUPTI's clock, from the harness's records.
struct WindowEdges {
    std::optional<std::uint64_t> start_ns;  // the flush's end
    std::optional<std::uint64_t> end_ns;    // the marker's start
};

WindowEdges window_edges(const std::vector<DeviceActivity>& records, std::uint32_t harness_stream) {
    std::vector<const DeviceActivity*> harness;
    for (const DeviceActivity& record : records) {
        if (record.stream_id == harness_stream) harness.push_back(&record);
    }
    std::sort(harness.begin(), harness.end(),
              [](const DeviceActivity* a, const DeviceActivity* b) { return a->start_ns < b->start_ns; });
    WindowEdges edges;
    if (!harness.empty()) edges.end_ns = harness.back()->start_ns;
    if (harness.size() >= 2) edges.start_ns = harness[harness.size() - 2]->end_ns;
    return edges;
}

}  // namespace

Profile profile_of(const std::vector<DeviceActivity>& records, std::uint32_t harness_stream) {
    const WindowEdges edges = window_edges(records, harness_stream);
    Profile profile;
    std::vector<KernelRow> rows;
    for (const DeviceActivity& record : records) {
        if (record.stream_id == harness_stream) continue;
        rows.push_back(KernelRow{record.name, 1, record.duration_ns(), 0.0});
        if (record.kind == DeviceActivity::Kind::kernel) profile.launched.insert(record.name);
        if (edges.end_ns && record.end_ns > *edges.end_ns) {
            const auto after = static_cast<double>(record.end_ns - *edges.end_ns);
            if (after > window_slack_ns) profile.late.push_back(LateWork{record.name, after});
        }
        if (edges.start_ns && record.start_ns < *edges.start_ns) {
            const auto before = static_cast<double>(*edges.start_ns - record.start_ns);
            if (before > window_slack_ns) profile.early.push_back(EarlyWork{record.name, before});
        }
    }
    std::stable_sort(profile.late.begin(), profile.late.end(),
                     [](const LateWork& a, const LateWork& b) { return a.ns_after_window_end > b.ns_after_window_end; });
    std::stable_sort(profile.early.begin(), profile.early.end(), [](const EarlyWork& a, const EarlyWork& b) {
        return a.ns_before_window_start > b.ns_before_window_start;
    });
    profile.kernels = merge_by_name(std::move(rows));
    profile.kernels.profiler = ProfilerDigest{profile.kernels.total_ns(), 1};
    return profile;
}

}  // namespace forge::bench
