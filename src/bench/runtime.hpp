// What the harness needs from a backend (HOST or CUDA): memory, a clock, a cache
// flush and one profiled call. The harness's logic is the same for both.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/tensor.hpp"
#include "forge/table/kernel_table.hpp"

namespace forge::bench {

// The backend cannot run here (a CUDA bench without a device, or a forge::bench
// built without CUDA): the bench exits 77 so CTest reports a skip.
struct BackendUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Runtime {
public:
    virtual ~Runtime() = default;

    [[nodiscard]] virtual nlohmann::json device_facts() const = 0;  // eval.json "device"
    [[nodiscard]] virtual Stream stream() const = 0;

    // A zero-filled tensor in the backend's memory.
    [[nodiscard]] virtual Tensor allocate(const TensorSpec& spec) = 0;
    // Whether a call wrote outside `tensor` (one this runtime allocated): "past the
    // end of" / "before the start of", or nullopt. HOST tensors sit between poisoned
    // guards; a backend without guards (CUDA: device memory) reports nothing.
    [[nodiscard]] virtual std::optional<std::string_view> damaged_guard(const Tensor&) const { return std::nullopt; }
    // Same-sized tensors, any places (host or device on either end).
    virtual void copy(const Tensor& from, Tensor& to) = 0;
    // Every byte set to `value` (the harness poisons outputs before a correctness call).
    virtual void fill_bytes(Tensor& tensor, unsigned char value) = 0;
    // Waits for the backend's work; throws when the work failed.
    virtual void synchronize() = 0;

    virtual void flush_cache() = 0;
    // Milliseconds of one call by the backend's clock (CUDA: events on the stream).
    [[nodiscard]] virtual double time_call(const std::function<void()>& call) = 0;
    // Milliseconds of `count` calls issued back to back.
    [[nodiscard]] virtual double time_calls(const std::function<void()>& call, int count) = 0;
    // The per-kernel table and profiler digest of one call, outside every timed sample.
    // `label` names the side and workload (CUDA: the NVTX range).
    [[nodiscard]] virtual KernelTable profile_call(const std::function<void()>& call, const std::string& label) = 0;
};

[[nodiscard]] std::unique_ptr<Runtime> make_host_runtime();
// Throws BackendUnavailable when there is no usable device `device`.
[[nodiscard]] std::unique_ptr<Runtime> make_cuda_runtime(int device);

}  // namespace forge::bench
