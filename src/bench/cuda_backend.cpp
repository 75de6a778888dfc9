// The CUDA backend: guarded device memory, CUDA events from the bench's stream to
// a device-wide window end, the L2 flushed by a memset of twice its size, kernel
// names of timed calls from CUPTI's launch callbacks, per-kernel tables from CUPTI
// activity, and one profiled call per side bracketed by cudaProfilerStart/Stop and
// an NVTX range, so `ncu --profile-from-start off` captures exactly those windows.
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cupti_activity.hpp"
#include "cupti_launch_log.hpp"
#include "device_profile.hpp"
#include "guarded_memory.hpp"
#include "runtime.hpp"

namespace forge::bench {

namespace {

// The flush buffer is at least this big, whatever the device reports as its L2.
constexpr std::size_t min_flush_bytes = std::size_t{8} << 20;

// The profiled call's window end, as CUPTI sees it: a memset on the legacy default
// stream, of an unusual size and value, so no call's own memset is taken for it.
constexpr WindowEndMarker window_end_marker{44, 0xF7};

void check(cudaError_t error, const std::string& what) {
    if (error != cudaSuccess) {
        throw BenchError("CUDA error during " + what + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
    }
}

void release_guarded_device(std::byte* data) { cudaFree(data - guard_bytes); }

class CudaRuntime final : public Runtime {
public:
    explicit CudaRuntime(int device) : device_(device) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaGetDeviceProperties(&properties_, device_), "cudaGetDeviceProperties");
        // A blocking stream: the legacy default stream, where windows end, waits for it.
        check(cudaStreamCreate(&stream_), "cudaStreamCreate");
        check(cudaEventCreate(&start_), "cudaEventCreate");
        check(cudaEventCreate(&stop_), "cudaEventCreate");
        int l2_bytes = 0;
        check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device_), "cudaDeviceGetAttribute(L2)");
        l2_bytes_ = static_cast<std::size_t>(l2_bytes);
        flush_bytes_ = std::max(2 * l2_bytes_, min_flush_bytes);
        check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc(flush buffer)");
        check(cudaMalloc(&window_end_, window_end_marker.bytes), "cudaMalloc(window end marker)");
    }

    CudaRuntime(const CudaRuntime&) = delete;
    CudaRuntime& operator=(const CudaRuntime&) = delete;

    ~CudaRuntime() override {
        cudaDeviceSynchronize();
        cudaFree(window_end_);
        cudaFree(flush_);
        cudaEventDestroy(stop_);
        cudaEventDestroy(start_);
        cudaStreamDestroy(stream_);
    }

    [[nodiscard]] nlohmann::json device_facts() const override {
        int driver = 0;
        int runtime = 0;
        cudaDriverGetVersion(&driver);
        cudaRuntimeGetVersion(&runtime);
        return {{"name", properties_.name},
                {"index", device_},
                {"compute_capability", std::to_string(properties_.major) + "." + std::to_string(properties_.minor)},
                {"multiprocessors", properties_.multiProcessorCount},
                {"memory_bytes", properties_.totalGlobalMem},
                {"l2_bytes", l2_bytes_},
                {"flush_bytes", flush_bytes_},
                {"driver_version", driver},
                {"runtime_version", runtime},
                {"clock", "cudaEvent"},
                {"window_end", "event on the legacy default stream, then cudaDeviceSynchronize"}};
    }

    [[nodiscard]] Stream stream() const override { return stream_; }

    [[nodiscard]] Tensor allocate(const TensorSpec& spec) override {
        const GuardLayout layout(byte_size(spec));
        void* memory = nullptr;
        check(cudaMalloc(&memory, layout.total_bytes), "cudaMalloc of '" + spec.name + "'");
        auto* base = static_cast<std::byte*>(memory);
        Tensor tensor(spec, Place::device, base + guard_bytes, &release_guarded_device);
        check(cudaMemset(tensor.raw(), 0, layout.data_bytes), "cudaMemset of '" + spec.name + "'");
        std::vector<std::byte> guard(std::max(guard_bytes, layout.trailing_bytes()));
        write_guard_pattern({guard.data(), guard_bytes}, 0);
        check(cudaMemcpy(base, guard.data(), guard_bytes, cudaMemcpyHostToDevice), "guarding '" + spec.name + "'");
        write_guard_pattern({guard.data(), layout.trailing_bytes()}, layout.trailing_offset);
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
        if (!holds_guard_pattern({guard.data(), guard_bytes}, 0)) return "before the start of";
        check(cudaMemcpy(guard.data(), base + layout.trailing_offset, layout.trailing_bytes(), cudaMemcpyDeviceToHost),
              "reading the guards of '" + tensor.name() + "'");
        if (!holds_guard_pattern({guard.data(), layout.trailing_bytes()}, layout.trailing_offset)) {
            return "past the end of";
        }
        return std::nullopt;
    }

    void copy(const Tensor& from, Tensor& to) override {
        const std::size_t bytes = std::min(from.bytes(), to.bytes());
        check(cudaMemcpyAsync(to.raw(), from.raw(), bytes, cudaMemcpyDefault, stream_),
              "copying '" + from.name() + "'");
        // A host end (pageable memory) must be complete before the host reads or reuses it.
        if (from.place() == Place::host || to.place() == Place::host) synchronize();
    }

    void fill_bytes(Tensor& tensor, unsigned char value) override {
        check(cudaMemsetAsync(tensor.raw(), value, tensor.bytes(), stream_), "cudaMemset of '" + tensor.name() + "'");
    }

    void synchronize() override {
        check(cudaDeviceSynchronize(), "the device's work (a call's kernel failed)");
        check(cudaGetLastError(), "a kernel launch");
    }

    void flush_cache() override {
        check(cudaMemsetAsync(flush_, ++flush_value_, flush_bytes_, stream_), "the L2 flush");
    }

    [[nodiscard]] double time_call(const std::function<void()>& call) override { return time_calls(call, 1); }

    // The window starts on the bench's stream and ends device-wide: the stop event
    // is on the legacy default stream, which waits for the bench's stream and every
    // other blocking stream, so work a call moves to a stream of its own is timed.
    // Work on a non-blocking stream is not, but the synchronisation below finishes
    // it before any check, and the profiled call reports it (LateWork).
    [[nodiscard]] double time_calls(const std::function<void()>& call, int count) override {
        check(cudaEventRecord(start_, stream_), "cudaEventRecord");
        for (int i = 0; i < count; ++i) call();
        check(cudaEventRecord(stop_, cudaStreamLegacy), "cudaEventRecord");
        check(cudaDeviceSynchronize(), "a timed call (a kernel failed)");
        check(cudaGetLastError(), "a timed call's kernel launch");
        float ms = 0.0F;
        check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        return ms;
    }

    [[nodiscard]] std::unique_ptr<LaunchLog> log_launches() override { return launch_callbacks_.log(); }

    [[nodiscard]] std::string why_no_launch_log() const override { return launch_callbacks_.unavailable_because(); }

    [[nodiscard]] Profile profile_call(const std::function<void()>& call, const std::string& label) override {
        synchronize();  // the cache flush and the input copies stay out of the profile
        std::optional<CuptiActivityCollector> collector;
        std::string cupti_problem;
        try {
            collector.emplace();
        } catch (const BenchError& e) {
            cupti_problem = e.what();  // e.g. under ncu: the call still runs inside the profiler window
        }
        nvtxRangePushA(label.c_str());
        check(cudaProfilerStart(), "cudaProfilerStart");
        call();
        // Where the timed windows' stop event would be, on CUPTI's clock.
        const cudaError_t marked =
            collector ? cudaMemsetAsync(window_end_, static_cast<int>(window_end_marker.value),
                                        window_end_marker.bytes, cudaStreamLegacy)
                      : cudaSuccess;
        const cudaError_t finished = cudaDeviceSynchronize();
        cudaProfilerStop();
        nvtxRangePop();
        check(finished, "the profiled call (a kernel failed)");
        check(marked, "marking the profiled call's window end");
        check(cudaGetLastError(), "the profiled call's kernel launch");
        if (!collector) {
            std::cerr << "[forge bench] " << label << ": no per-kernel table: " << cupti_problem << "\n";
            return Profile{};
        }
        return profile_of(collector->finish(), window_end_marker);
    }

private:
    int device_;
    cudaDeviceProp properties_{};
    cudaStream_t stream_ = nullptr;
    cudaEvent_t start_ = nullptr;
    cudaEvent_t stop_ = nullptr;
    std::size_t l2_bytes_ = 0;
    std::size_t flush_bytes_ = 0;
    void* flush_ = nullptr;
    unsigned char flush_value_ = 0;
    void* window_end_ = nullptr;
    CuptiLaunchCallbacks launch_callbacks_;
};

}  // namespace

std::unique_ptr<Runtime> make_cuda_runtime(int device) {
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess || count == 0) {
        throw BackendUnavailable(std::string("no CUDA device to run this bench on (") +
                                 (error != cudaSuccess ? cudaGetErrorString(error) : "the driver lists none") + ")");
    }
    if (device < 0 || device >= count) {
        throw BackendUnavailable("CUDA device " + std::to_string(device) + " was asked for, but there are " +
                                 std::to_string(count) + " device(s)");
    }
    return std::make_unique<CudaRuntime>(device);
}

}  // namespace forge::bench
