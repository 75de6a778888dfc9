#include "runtime/cupti/cupti_activity.hpp"

#include <cupti.h>
#include <cxxabi.h>

#include <cstdlib>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

#include "forge/bench/tensor.hpp"
#include "runtime/cuda/cuda_check.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t buffer_bytes = std::size_t{4} << 20;
constexpr std::size_t buffer_alignment = 8;  // CUPTI's requirement for activity buffers

constexpr CUpti_ActivityKind collected_kinds[] = {CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, CUPTI_ACTIVITY_KIND_MEMCPY,
                                                  CUPTI_ACTIVITY_KIND_MEMSET};

// Filled by CUPTI's buffer-completed callback (any thread), read by finish().
// Nothing may be thrown across CUPTI's C frames: what went wrong there waits in
// `completion_problem` for finish() to throw.
std::mutex records_mutex;
std::vector<DeviceActivity> completed_records;
std::size_t dropped_records = 0;
std::string completion_problem;

// Named as nsys names them.
std::string memcpy_name(std::uint8_t kind) {
    switch (static_cast<CUpti_ActivityMemcpyKind>(kind)) {
        case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD: return "[CUDA memcpy Host-to-Device]";
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH: return "[CUDA memcpy Device-to-Host]";
        case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD: return "[CUDA memcpy Device-to-Device]";
        case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP: return "[CUDA memcpy Peer-to-Peer]";
        default: return "[CUDA memcpy]";
    }
}

std::vector<DeviceActivity> read_records(std::uint8_t* buffer, std::size_t valid_bytes) {
    std::vector<DeviceActivity> records;
    CUpti_Activity* record = nullptr;
    while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
        switch (record->kind) {
            case CUPTI_ACTIVITY_KIND_KERNEL:
            case CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL: {
                const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
                records.push_back({DeviceActivity::Kind::kernel, demangled_kernel_name(kernel->name), kernel->start,
                                   kernel->end, 0, kernel->streamId});
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMCPY: {
                const auto* copy = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
                records.push_back({DeviceActivity::Kind::memcpy, memcpy_name(copy->copyKind), copy->start, copy->end,
                                   copy->bytes, copy->streamId});
                break;
            }
            case CUPTI_ACTIVITY_KIND_MEMSET: {
                const auto* set = reinterpret_cast<const CUpti_ActivityMemset4*>(record);
                records.push_back(
                    {DeviceActivity::Kind::memset, "[CUDA memset]", set->start, set->end, set->bytes, set->streamId});
                break;
            }
            default: break;
        }
    }
    return records;
}

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
    *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(buffer_alignment, buffer_bytes));
    *size = *buffer != nullptr ? buffer_bytes : 0;
    *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext context, std::uint32_t stream_id, std::uint8_t* buffer, std::size_t,
                               std::size_t valid_bytes) {
    const std::unique_ptr<std::uint8_t, void (*)(void*)> owned(buffer, std::free);
    std::size_t dropped = 0;
    const CUptiResult counted = cuptiActivityGetNumDroppedRecords(context, stream_id, &dropped);
    try {
        std::vector<DeviceActivity> records = read_records(buffer, valid_bytes);
        const std::lock_guard lock(records_mutex);
        completed_records.insert(completed_records.end(), std::make_move_iterator(records.begin()),
                                 std::make_move_iterator(records.end()));
        dropped_records += dropped;
        if (counted != CUPTI_SUCCESS && completion_problem.empty()) {
            completion_problem = failure_text(counted, "cuptiActivityGetNumDroppedRecords", std::source_location::current());
        }
    } catch (const std::exception& e) {
        const std::lock_guard lock(records_mutex);
        if (completion_problem.empty()) completion_problem = std::string("reading CUPTI's activity records: ") + e.what();
    } catch (...) {
        const std::lock_guard lock(records_mutex);
        if (completion_problem.empty()) completion_problem = "reading CUPTI's activity records failed";
    }
}

}  // namespace

std::string demangled_kernel_name(const char* name) {
    if (name == nullptr) return "(unnamed kernel)";
    int status = 0;
    std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(name, nullptr, nullptr, &status), std::free);
    return status == 0 && text ? std::string(text.get()) : std::string(name);
}

std::uint32_t cupti_stream_id(cudaStream_t stream) {
    std::uint32_t id = 0;
    check(cuptiGetStreamIdEx(nullptr, stream, 0, &id), "cuptiGetStreamIdEx");
    return id;
}

CuptiActivityCollector::CuptiActivityCollector() {
    static const CUptiResult registered = cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed);
    check(registered, "cuptiActivityRegisterCallbacks");
    // Records of earlier activity (none expected: collection is off between profiled calls) are dropped.
    check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    {
        const std::lock_guard lock(records_mutex);
        completed_records.clear();
        dropped_records = 0;
        completion_problem.clear();
    }
    for (std::size_t i = 0; i < std::size(collected_kinds); ++i) {
        const CUptiResult result = cuptiActivityEnable(collected_kinds[i]);
        if (result != CUPTI_SUCCESS) {
            for (std::size_t j = 0; j < i; ++j) report_failure(cuptiActivityDisable(collected_kinds[j]), "cuptiActivityDisable");
            check(result, "cuptiActivityEnable");
        }
    }
}

CuptiActivityCollector::~CuptiActivityCollector() {
    for (CUpti_ActivityKind kind : collected_kinds) report_failure(cuptiActivityDisable(kind), "cuptiActivityDisable");
}

std::vector<DeviceActivity> CuptiActivityCollector::finish() {
    check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "cuptiActivityFlushAll");
    const std::lock_guard lock(records_mutex);
    if (!completion_problem.empty()) throw BenchError(completion_problem);
    if (dropped_records > 0) {
        throw BenchError("CUPTI dropped " + std::to_string(dropped_records) +
                         " activity record(s) of the profiled call (its buffers were full): the per-kernel table "
                         "would miss work; profile fewer launches per call, or report this with the workload");
    }
    return std::exchange(completed_records, {});
}

}  // namespace forge::bench
