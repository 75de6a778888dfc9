// The CUDA backend: guarded device memory; CUDA events from a start fenced on the
// legacy default stream to a device-wide window end; the L2 flushed by a memset of
// twice its size; kernel names of timed calls from CUPTI's launch callbacks;
// per-kernel tables from CUPTI activity; each profiled call bracketed by
// cudaProfilerStart/Stop and an NVTX range, so `ncu --profile-from-start off`
// captures exactly those windows; the GPU held for this process (GpuClaim).
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "forge/eval/eval_keys.hpp"
#include "runtime/cuda/cuda_architectures.hpp"
#include "runtime/cuda/cuda_buffer.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cuda_environment.hpp"
#include "runtime/cuda/cuda_event.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_availability.hpp"
#include "runtime/cuda/device_profile.hpp"
#include "runtime/cuda/gpu_claim.hpp"
#include "runtime/cuda/nvml_clocks.hpp"
#include "runtime/cupti/cupti_activity.hpp"
#include "runtime/cupti/cupti_launch_log.hpp"
#include "runtime/guarded_memory.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

static_assert(cuda_success == cudaSuccess && cuda_error_no_device == cudaErrorNoDevice,
              "device_availability.hpp's codes are CUDA's");

namespace {

// The flush buffer is at least this big, whatever the device reports as its L2.
constexpr std::size_t min_flush_bytes = std::size_t{8} << 20;
constexpr std::size_t window_end_marker_bytes = 4;

// A profiled call's range for a profiler attached from outside: an NVTX range
// named for it, inside cudaProfilerStart/Stop, so `ncu --profile-from-start off`
// captures exactly those windows. Closed when the call throws too, and a
// failed stop is reported here, not left for the next check to blame on a call.
class ProfiledRange {
public:
    explicit ProfiledRange(const std::string& label) {
        nvtxRangePushA(label.c_str());
        if (const cudaError_t started = cudaProfilerStart(); started != cudaSuccess) {
            nvtxRangePop();
            check(started, "cudaProfilerStart");
        }
    }
    ProfiledRange(const ProfiledRange&) = delete;
    ProfiledRange& operator=(const ProfiledRange&) = delete;
    ~ProfiledRange() {
        if (!report_failure(cudaProfilerStop(), "cudaProfilerStop")) static_cast<void>(cudaGetLastError());
        nvtxRangePop();
    }
};

void release_guarded_device(std::byte* data) { report_failure(cudaFree(data - guard_bytes), "cudaFree (a tensor)"); }

cudaDeviceProp device_properties(int device) {
    cudaDeviceProp properties{};
    check(cudaGetDeviceProperties(&properties, device), "cudaGetDeviceProperties");
    return properties;
}

// "GPU-" and the UUID in nvidia-smi's form: one name for the GPU whatever
// CUDA_VISIBLE_DEVICES makes its index.
std::string gpu_uuid(const cudaDeviceProp& properties) {
    std::string text = "GPU-";
    for (int i = 0; i < 16; ++i) {
        char hex[3];
        std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(properties.uuid.bytes[i]));
        text += hex;
        if (i == 3 || i == 5 || i == 7 || i == 9) text += '-';
    }
    return text;
}

// "0000:17:00.0": how NVML finds the same GPU.
std::string pci_bus_id(int device) {
    char id[32] = {};
    check(cudaDeviceGetPCIBusId(id, sizeof id, device), "cudaDeviceGetPCIBusId");
    return id;
}

std::size_t l2_cache_bytes(int device) {
    int bytes = 0;
    check(cudaDeviceGetAttribute(&bytes, cudaDevAttrL2CacheSize, device), "cudaDeviceGetAttribute(L2 cache size)");
    return static_cast<std::size_t>(bytes);
}

// Peak DRAM bandwidth in GB/s: two transfers per memory clock (double data rate)
// across the whole bus, 2 * clock_kHz * 1e3 * bus_bits / 8, from the device
// attributes (CUDA 13 removed cudaDeviceProp::memoryClockRate). The theoretical
// figure a kernel's achieved GB/s is read against; nullopt when the device
// reports no clock or bus width.
std::optional<double> peak_dram_gbps_of(int device) {
    int clock_khz = 0;
    int bus_bits = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, device),
          "cudaDeviceGetAttribute(memory clock rate)");
    check(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, device),
          "cudaDeviceGetAttribute(global memory bus width)");
    if (clock_khz <= 0 || bus_bits <= 0) return std::nullopt;
    return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;
}

class CudaRuntime final : public Runtime {
public:
    CudaRuntime(int device, std::string_view cuda_architectures)
        : device_(device),
          properties_(device_properties(device)),
          architecture_notice_(architecture_notice(cuda_architectures, properties_.major, properties_.minor)),
          claim_(gpu_uuid(properties_), std::filesystem::temp_directory_path(), std::cerr),
          device_set_(select(device)),
          l2_bytes_(l2_cache_bytes(device)),
          peak_dram_gbps_(peak_dram_gbps_of(device)),
          flush_(std::max(2 * l2_bytes_, min_flush_bytes)),
          window_end_(window_end_marker_bytes),
          clocks_(pci_bus_id(device)) {
        settle_cupti();
    }

    CudaRuntime(const CudaRuntime&) = delete;
    CudaRuntime& operator=(const CudaRuntime&) = delete;

    // Work still queued finishes before the buffers, streams and the claim go.
    ~CudaRuntime() override { report_failure(cudaDeviceSynchronize(), "cudaDeviceSynchronize (the last work)"); }

    [[nodiscard]] nlohmann::json device_facts() const override {
        int driver = 0;
        int runtime = 0;
        report_failure(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
        report_failure(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
        return {{eval_key::name, properties_.name},
                {"index", device_},
                {eval_key::uuid, gpu_uuid(properties_)},
                {"compute_capability", std::to_string(properties_.major) + "." + std::to_string(properties_.minor)},
                {"multiprocessors", properties_.multiProcessorCount},
                {"memory_bytes", properties_.totalGlobalMem},
                {"l2_bytes", l2_bytes_},
                {"peak_dram_bandwidth_gbps", peak_dram_gbps_ ? nlohmann::json(*peak_dram_gbps_) : nlohmann::json()},
                {"flush_bytes", flush_.bytes()},
                {"driver_version", driver},
                {"runtime_version", runtime},
                {"environment", environment_.facts},
                {"clock", "cudaEvent"},
                {"clocks_per_round", clocks_.why_not().empty() ? "NVML" : clocks_.why_not()},
                {"window_start", "event on the legacy default stream after the cache flush (every blocking stream "
                                 "waits for it)"},
                {"window_end", "event on the legacy default stream, then cudaDeviceSynchronize"}};
    }

    [[nodiscard]] std::vector<std::string> notices() const override {
        std::vector<std::string> notices = environment_.notices;
        if (architecture_notice_) notices.push_back(*architecture_notice_);
        return notices;
    }

    [[nodiscard]] std::optional<double> peak_dram_gbps() const override { return peak_dram_gbps_; }

    // The theoretical peak: no call reads its declared bytes from DRAM faster
    // (the flush empties L2 before it); 10% for the attributes' rounding.
    [[nodiscard]] std::optional<MemoryCeiling> memory_ceiling() const override {
        if (!peak_dram_gbps_) return std::nullopt;
        return MemoryCeiling{.gbps = *peak_dram_gbps_,
                             .margin = 1.1,
                             .source = "the device's peak DRAM bandwidth, 2 x memory clock x bus width / 8 "
                                       "(device.peak_dram_bandwidth_gbps)"};
    }

    [[nodiscard]] Stream stream() const override { return stream_.get(); }

    [[nodiscard]] std::optional<ClockReading> read_clocks() override { return clocks_.read(); }

    [[nodiscard]] Tensor allocate(const TensorSpec& spec) override {
        const GuardLayout layout(byte_size(spec));
        void* memory = nullptr;
        check(cudaMalloc(&memory, layout.total_bytes), "cudaMalloc of tensor '" + spec.name + "'");
        auto* base = static_cast<std::byte*>(memory);
        Tensor tensor(spec, Place::device, base + guard_bytes, &release_guarded_device);
        check(cudaMemset(tensor.raw(), 0, layout.data_bytes), "zeroing tensor '" + spec.name + "'");
        std::vector<std::byte> guard(std::max(guard_bytes, layout.trailing_bytes()));
        const GuardPattern pattern = GuardPattern::next();
        pattern.write({guard.data(), guard_bytes}, 0);
        check(cudaMemcpy(base, guard.data(), guard_bytes, cudaMemcpyHostToDevice), "guarding '" + spec.name + "'");
        pattern.write({guard.data(), layout.trailing_bytes()}, layout.trailing_offset);
        check(cudaMemcpy(base + layout.trailing_offset, guard.data(), layout.trailing_bytes(), cudaMemcpyHostToDevice),
              "guarding '" + spec.name + "'");
        return tensor;
    }

    // Reads both guards back: the device is synchronised, outside every window.
    [[nodiscard]] std::optional<std::string_view> damaged_guard(const Tensor& tensor) const override {
        const GuardLayout layout(tensor.bytes());
        const std::byte* base = tensor.raw() - guard_bytes;
        std::vector<std::byte> guard(std::max(guard_bytes, layout.trailing_bytes()));
        check(cudaMemcpy(guard.data(), base, guard_bytes, cudaMemcpyDeviceToHost),
              "reading the guards of '" + tensor.name() + "'");
        const GuardPattern pattern = GuardPattern::of_leading_guard({guard.data(), guard_bytes});
        if (!pattern.holds({guard.data(), guard_bytes}, 0)) return "before the start of";
        check(cudaMemcpy(guard.data(), base + layout.trailing_offset, layout.trailing_bytes(), cudaMemcpyDeviceToHost),
              "reading the guards of '" + tensor.name() + "'");
        if (!pattern.holds({guard.data(), layout.trailing_bytes()}, layout.trailing_offset)) {
            return "past the end of";
        }
        return std::nullopt;
    }

    void copy(const Tensor& from, Tensor& to) override {
        const std::size_t bytes = std::min(from.bytes(), to.bytes());
        check(cudaMemcpyAsync(to.raw(), from.raw(), bytes, cudaMemcpyDefault, stream_.get()),
              "copying '" + from.name() + "'");
        // A host end (pageable memory) must be complete before the host reads or reuses it.
        if (from.place() == Place::host || to.place() == Place::host) synchronize();
    }

    void fill_bytes(Tensor& tensor, unsigned char value) override {
        check(cudaMemsetAsync(tensor.raw(), value, tensor.bytes(), stream_.get()),
              "filling '" + tensor.name() + "'");
    }

    void synchronize() override {
        check(cudaDeviceSynchronize(), "the device's work (a call's kernel failed)");
        check(cudaGetLastError(), "a kernel launch");
    }

    void flush_cache() override { flush_on(stream_.get()); }

    [[nodiscard]] double time_call(const std::function<void()>& call) override { return time_calls(call, 1); }

    // Both events are on the legacy default stream. The start waits for the flush
    // and every blocking stream's later work waits for it, so a call's work on the
    // bench's stream or a blocking stream of its own cannot start beside the flush;
    // the stop waits for all of it. A non-blocking stream waits for neither: the
    // synchronisation below finishes its work before any check, and the profiled
    // call reports work it ran before or after the window (EarlyWork, LateWork).
    [[nodiscard]] double time_calls(const std::function<void()>& call, int count) override {
        start_.record(cudaStreamLegacy);
        for (int i = 0; i < count; ++i) call();
        stop_.record(cudaStreamLegacy);
        check(cudaDeviceSynchronize(), "a timed call (a kernel failed)");
        check(cudaGetLastError(), "a timed call's kernel launch");
        return elapsed_ms(start_, stop_);
    }

    [[nodiscard]] std::unique_ptr<LaunchLog> log_launches() override { return launch_callbacks_.log(); }

    [[nodiscard]] std::string why_no_launch_log() const override { return launch_callbacks_.unavailable_because(); }

    // The timed window's edges, made visible to CUPTI on the harness's own
    // non-blocking stream, which no call can reach: a flush whose end every
    // blocking stream waits for (the start event's place), and a marker after
    // everything the legacy default stream waits for (the stop event's place).
    [[nodiscard]] Profile profile_call(const std::function<void()>& call, const std::string& label) override {
        synchronize();  // the harness's flush and input copies stay out of the profile
        std::optional<CuptiActivityCollector> collector;
        std::string no_table_because = launch_callbacks_.unavailable_because();
        // Under nsys or ncu CUPTI belongs to the profiler: registering activity
        // buffers of our own would take its records.
        if (no_table_because.empty()) {
            try {
                collector.emplace();
            } catch (const BenchError& e) {
                no_table_because = e.what();
            }
        }
        cudaError_t marked = cudaSuccess;
        cudaError_t finished = cudaSuccess;
        cudaError_t launched = cudaSuccess;
        {
            const ProfiledRange range(label);
            flush_on(harness_stream_.get());
            fence_.record(harness_stream_.get());
            fence_.make_wait(cudaStreamLegacy);
            fence_.make_wait(stream_.get());
            call();
            fence_.record(cudaStreamLegacy);
            fence_.make_wait(harness_stream_.get());
            marked = cudaMemsetAsync(window_end_.get(), 0, window_end_.bytes(), harness_stream_.get());
            finished = cudaDeviceSynchronize();
            launched = cudaGetLastError();  // the call's, before the range's own calls can set it
        }
        check(finished, "the profiled call (a kernel failed)");
        check(marked, "marking the profiled call's window end");
        check(launched, "the profiled call's kernel launch");
        if (collector) {
            // CUPTI trouble after the call (dropped records, a failed flush) costs
            // the table, not the run's timings.
            try {
                return profile_of(collector->finish(), cupti_stream_id(harness_stream_.get()));
            } catch (const BenchError& e) {
                no_table_because = e.what();
            }
        }
        std::cerr << "[forge bench] " << label << ": no per-kernel table: " << no_table_because << "\n";
        return Profile{};
    }

private:
    static bool select(int device) {
        check(cudaSetDevice(device), "cudaSetDevice");
        return true;
    }

    void flush_on(cudaStream_t stream) {
        check(cudaMemsetAsync(flush_.get(), ++flush_value_, flush_.bytes(), stream), "the L2 flush");
    }

    // CUPTI's first activity collection leaves the process in another state
    // (instrumented launch paths, a slowdown until finalised): one whole
    // enable/flush/disable cycle now puts the reference and the student in the
    // same state for every timed round, whichever is profiled first.
    void settle_cupti() {
        if (!launch_callbacks_.unavailable_because().empty()) return;
        try {
            CuptiActivityCollector collector;
            flush_on(harness_stream_.get());
            synchronize();
            (void)collector.finish();
        } catch (const BenchError& e) {
            std::cerr << "[forge bench] CUPTI's activity collection did not start: " << e.what() << "\n";
        }
    }

    int device_;
    cudaDeviceProp properties_;
    std::optional<std::string> architecture_notice_;  // the device has no native code in the bench
    GpuClaim claim_;  // before anything that touches the device; released last
    bool device_set_;  // cudaSetDevice, here in member order: before any allocation
    std::size_t l2_bytes_;
    std::optional<double> peak_dram_gbps_;
    CudaBuffer flush_;
    CudaBuffer window_end_;
    unsigned char flush_value_ = 0;
    // A blocking stream: the legacy default stream, where windows start and end, waits for it.
    CudaStream stream_{cudaStreamDefault};
    CudaStream harness_stream_{cudaStreamNonBlocking};
    CudaEvent start_;
    CudaEvent stop_;
    CudaEvent fence_{cudaEventDisableTiming};
    CuptiLaunchCallbacks launch_callbacks_;
    NvmlClocks clocks_;
    CudaEnvironment environment_ = cuda_environment([](const char* name) { return std::getenv(name); });
};

}  // namespace

DeviceCountAnswer ask_cuda_for_devices() {
    DeviceCountAnswer answer;
    const cudaError_t error = cudaGetDeviceCount(&answer.count);
    answer.error = static_cast<int>(error);
    if (error != cudaSuccess) {
        answer.error_name = cudaGetErrorName(error);
        answer.error_text = cudaGetErrorString(error);
    }
    // The runtime has loaded the driver library if there is one; NOLOAD only asks.
    void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (driver == nullptr) driver = dlopen("libcuda.so.1", RTLD_LAZY);
    answer.driver_present = driver != nullptr;
    if (driver != nullptr) dlclose(driver);
    return answer;
}

std::unique_ptr<Runtime> make_cuda_runtime(int device, std::string_view cuda_architectures) {
    require_cuda_device(ask_cuda_for_devices(), device);
    return std::make_unique<CudaRuntime>(device, cuda_architectures);
}

}  // namespace forge::bench
