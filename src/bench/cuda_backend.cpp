// The CUDA backend: device memory, CUDA events on the bench's stream, the L2
// flushed by a memset of twice its size, per-kernel tables from CUPTI, and one
// profiled call per side bracketed by cudaProfilerStart/Stop and an NVTX range, so
// `ncu --profile-from-start off` captures exactly the profiled windows.
#include <cuda_profiler_api.h>
#include <cuda_runtime_api.h>
#include <nvtx3/nvToolsExt.h>

#include <algorithm>
#include <iostream>
#include <optional>
#include <string>

#include "cupti_tables.hpp"
#include "runtime.hpp"

namespace forge::bench {

namespace {

// The flush buffer is at least this big, whatever the device reports as its L2.
constexpr std::size_t min_flush_bytes = std::size_t{8} << 20;

void check(cudaError_t error, const std::string& what) {
    if (error != cudaSuccess) {
        throw BenchError("CUDA error during " + what + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error));
    }
}

void release_device(std::byte* bytes) { cudaFree(bytes); }

class CudaRuntime final : public Runtime {
public:
    explicit CudaRuntime(int device) : device_(device) {
        check(cudaSetDevice(device_), "cudaSetDevice");
        check(cudaGetDeviceProperties(&properties_, device_), "cudaGetDeviceProperties");
        check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
        check(cudaEventCreate(&start_), "cudaEventCreate");
        check(cudaEventCreate(&stop_), "cudaEventCreate");
        int l2_bytes = 0;
        check(cudaDeviceGetAttribute(&l2_bytes, cudaDevAttrL2CacheSize, device_), "cudaDeviceGetAttribute(L2)");
        l2_bytes_ = static_cast<std::size_t>(l2_bytes);
        flush_bytes_ = std::max(2 * l2_bytes_, min_flush_bytes);
        check(cudaMalloc(&flush_, flush_bytes_), "cudaMalloc(flush buffer)");
    }

    CudaRuntime(const CudaRuntime&) = delete;
    CudaRuntime& operator=(const CudaRuntime&) = delete;

    ~CudaRuntime() override {
        cudaStreamSynchronize(stream_);
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
                {"clock", "cudaEvent"}};
    }

    [[nodiscard]] Stream stream() const override { return stream_; }

    [[nodiscard]] Tensor allocate(const TensorSpec& spec) override {
        const std::size_t bytes = byte_size(spec);
        void* memory = nullptr;
        // Never zero bytes, so every tensor has an address a kernel can be given.
        check(cudaMalloc(&memory, std::max<std::size_t>(bytes, 256)), "cudaMalloc of '" + spec.name + "'");
        Tensor tensor(spec, Place::device, static_cast<std::byte*>(memory), &release_device);
        check(cudaMemset(memory, 0, std::max<std::size_t>(bytes, 256)), "cudaMemset of '" + spec.name + "'");
        return tensor;
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
        check(cudaStreamSynchronize(stream_), "the bench's stream (a call's kernel failed)");
        check(cudaGetLastError(), "a kernel launch");
    }

    void flush_cache() override {
        check(cudaMemsetAsync(flush_, ++flush_value_, flush_bytes_, stream_), "the L2 flush");
    }

    [[nodiscard]] double time_call(const std::function<void()>& call) override { return time_calls(call, 1); }

    [[nodiscard]] double time_calls(const std::function<void()>& call, int count) override {
        check(cudaEventRecord(start_, stream_), "cudaEventRecord");
        for (int i = 0; i < count; ++i) call();
        check(cudaEventRecord(stop_, stream_), "cudaEventRecord");
        check(cudaEventSynchronize(stop_), "a timed call (a kernel failed)");
        check(cudaGetLastError(), "a timed call's kernel launch");
        float ms = 0.0F;
        check(cudaEventElapsedTime(&ms, start_, stop_), "cudaEventElapsedTime");
        return ms;
    }

    [[nodiscard]] KernelTable profile_call(const std::function<void()>& call, const std::string& label) override {
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
        const cudaError_t finished = cudaStreamSynchronize(stream_);
        cudaProfilerStop();
        nvtxRangePop();
        check(finished, "the profiled call (a kernel failed)");
        check(cudaGetLastError(), "the profiled call's kernel launch");
        if (!collector) {
            std::cerr << "[forge bench] " << label << ": no per-kernel table: " << cupti_problem << "\n";
            return KernelTable{};
        }
        KernelTable table = merge_by_name(collector->finish());
        table.profiler = ProfilerDigest{table.total_ns(), 1};
        return table;
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
