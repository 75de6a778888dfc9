#include "runtime/cuda/device_profile.hpp"

#include <algorithm>
#include <string>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

namespace {

// Where the window starts and ends on CUPTI's clock: the flush's end and the
// marker's start, the harness's only two records. Any other count means the
// call's records cannot be told from the harness's (a stream id CUPTI reported
// otherwise, a record lost): no table then, rather than one holding the flush.
struct WindowEdges {
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
};

WindowEdges window_edges(const std::vector<DeviceActivity>& records, std::uint32_t harness_stream) {
    std::vector<const DeviceActivity*> harness;
    for (const DeviceActivity& record : records) {
        if (record.stream_id == harness_stream) harness.push_back(&record);
    }
    if (harness.size() != 2) {
        throw BenchError("CUPTI reported " + std::to_string(harness.size()) + " records on the harness's stream (id " +
                         std::to_string(harness_stream) +
                         "), not its cache flush and window-end marker alone: the call's work cannot be told apart");
    }
    std::sort(harness.begin(), harness.end(),
              [](const DeviceActivity* a, const DeviceActivity* b) { return a->start_ns < b->start_ns; });
    return WindowEdges{.start_ns = harness[0]->end_ns, .end_ns = harness[1]->start_ns};
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
        if (record.end_ns > edges.end_ns) {
            const auto after = static_cast<double>(record.end_ns - edges.end_ns);
            if (after > window_slack_ns) profile.late.push_back(LateWork{record.name, after});
        }
        if (record.start_ns < edges.start_ns) {
            const auto before = static_cast<double>(edges.start_ns - record.start_ns);
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
