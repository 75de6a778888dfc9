// What the harness needs from a backend (HOST or CUDA): memory, a clock, a cache
// flush and one profiled call. The harness's logic is the same for both.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/tensor.hpp"
#include "forge/table/kernel_table.hpp"
#include "runtime/device_clocks.hpp"
#include "runtime/regions.hpp"

namespace forge::bench {

// The backend cannot run here (a CUDA bench without a device, or a forge::bench
// built without CUDA): the bench exits 77 so CTest reports a skip.
struct BackendUnavailable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The backend's device is there but cannot be used (CUDA: a driver too old for
// this runtime, a resource spec naming a GPU that is not visible): a failure that
// names the error and the fix, never a skip, so a broken machine cannot pass.
struct BackendBroken : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Device work of a profiled call still running when its window ended: the window
// did not time it (CUDA: a kernel on a stream that does not wait for the bench's).
struct LateWork {
    std::string name;
    double ns_after_window_end = 0.0;
};

// Device work of a profiled call that began before its window started: the window
// timed only its remainder (CUDA: a kernel on a non-blocking stream that ran
// beside the cache flush).
struct EarlyWork {
    std::string name;
    double ns_before_window_start = 0.0;
};

// What one profiled call of a side ran.
struct Profile {
    KernelTable kernels;                       // the per-kernel table
    std::set<std::string> launched;            // its kernels' names (no copies, no unmarked time)
    std::vector<LateWork> late;                // work that outlived the window
    std::vector<EarlyWork> early;              // work that began before the window
};

// The kernels the calls launched while it exists, by name: cheap enough inside a
// timed window. One at a time.
class LaunchLog {
public:
    virtual ~LaunchLog() = default;
    [[nodiscard]] virtual KernelNames names() const = 0;
};

// The most memory bandwidth a call on this machine can show, in GB/s, and
// how far past it a reading may go before it is refused (physical_floor.hpp):
// the device's theoretical peak (CUDA), or the best of a measurement (HOST),
// which a call mixing reads and writes can pass by some way.
struct MemoryCeiling {
    double gbps = 0.0;
    double margin = 1.0;
    std::string source;  // how `gbps` was found, for the refusal's text
};

// The most arithmetic a call on this machine can show, in GFLOP/s, and how
// far past it a reading may go before it is refused (physical_floor.hpp): a
// measurement of one kind of unit (HOST: fp32 multiply-adds on the widest
// vectors), which a kernel on narrower types or other units passes by some way.
struct ComputeCeiling {
    double gflops = 0.0;
    double margin = 1.0;
    std::string source;  // how `gflops` was found, for the refusal's text
};

class Runtime {
public:
    virtual ~Runtime() = default;

    [[nodiscard]] virtual nlohmann::json device_facts() const = 0;  // eval.json "device"
    // The device's peak DRAM bandwidth in GB/s, for each side's share of it; nullopt
    // where no sound figure exists (HOST: a CPU's depends on channels and DIMMs).
    [[nodiscard]] virtual std::optional<double> peak_dram_gbps() const { return std::nullopt; }
    // What no call can beat moving its declared bytes; nullopt where nothing sound bounds it.
    [[nodiscard]] virtual std::optional<MemoryCeiling> memory_ceiling() const { return std::nullopt; }
    // The ceiling measured again before a reading past memory_ceiling() is
    // refused: a measurement a neighbour loaded the memory for reads too low
    // (HOST), which the run's fastest memory calibration (`calibration_gbps`,
    // host memory read between rounds) may also show. A peak from the device's
    // attributes stands as it is.
    [[nodiscard]] virtual std::optional<MemoryCeiling> memory_ceiling_measured_again(
        std::optional<double> calibration_gbps) {
        static_cast<void>(calibration_gbps);
        return memory_ceiling();
    }
    // What no call can beat doing its declared FLOPs; nullopt where nothing sound
    // bounds it (CUDA: a peak per type and unit the attributes do not give).
    [[nodiscard]] virtual std::optional<ComputeCeiling> compute_ceiling() const { return std::nullopt; }
    // The ceiling measured again before a reading past compute_ceiling() is
    // refused, as memory_ceiling_measured_again().
    [[nodiscard]] virtual std::optional<ComputeCeiling> compute_ceiling_measured_again() { return compute_ceiling(); }
    // What a reader of eval.json should know about this machine's measurements
    // (HOST: a cache flush that does not evict); passed on as notices.
    [[nodiscard]] virtual std::vector<std::string> notices() const { return {}; }
    // What the machine did during the run that a reader should know (HOST:
    // another guest took the timing thread's CPU); after the last call.
    [[nodiscard]] virtual std::vector<std::string> notices_after_run() const { return {}; }
    [[nodiscard]] virtual Stream stream() const = 0;

    // A zero-filled tensor in the backend's memory.
    [[nodiscard]] virtual Tensor allocate(const TensorSpec& spec) = 0;
    // Whether a call wrote outside `tensor` (one this runtime allocated): "past the
    // end of" / "before the start of", or nullopt. Both backends put tensors
    // between poisoned guards (CUDA: in device memory, read back after the call).
    [[nodiscard]] virtual std::optional<std::string_view> damaged_guard(const Tensor&) const { return std::nullopt; }
    // Same-sized tensors, any places (host or device on either end).
    virtual void copy(const Tensor& from, Tensor& to) = 0;
    // Every byte set to `value` (the harness poisons outputs before a correctness call).
    virtual void fill_bytes(Tensor& tensor, unsigned char value) = 0;
    // Waits for all of the backend's work, on every stream; throws when the work failed.
    virtual void synchronize() = 0;

    // Everything a call left in the caches it reads through out (HOST: a sweep
    // of twice the last-level cache; CUDA: a memset of twice the L2).
    virtual void flush_cache() = 0;
    // After flush_cache, `tensor` (one this runtime allocated) out of every cache
    // level, line by line (HOST). A sweep twice the size of an adaptive LLC still
    // left a few percent of the lines a call had touched one flush earlier, so a
    // side's call right after its own read faster (docs/lab/README.md). CUDA:
    // nothing, the L2 flush is a memset of twice its size.
    virtual void evict(const Tensor& tensor) { static_cast<void>(tensor); }
    // copy(), then `to` out of the caches as evict() leaves it: a call's inputs,
    // loaded before each of its calls. HOST overrides it with a copy that never
    // brings `to` in (host/uncached_copy.hpp).
    virtual void copy_uncached(const Tensor& from, Tensor& to) {
        copy(from, to);
        evict(to);
    }
    // range(begin, end) over [data, data + bytes) of host memory, cut at cache
    // lines, for work between calls that memory bounds (a timed output checked
    // against its untimed call's). HOST shares the ranges with the threads of
    // its flush (host/sweep_crew.hpp); elsewhere one range on this thread.
    virtual void share_lines(const std::byte* data, std::size_t bytes,
                             const std::function<void(std::size_t, std::size_t)>& range) {
        static_cast<void>(data);
        range(0, bytes);
    }
    // part(i) for every i in [0, parts), for work between calls that can be cut
    // (a fresh round's elementwise comparison). HOST runs the parts on the
    // threads of its flush; elsewhere, one after another on this thread.
    virtual void run_parts(std::size_t parts, const std::function<void(std::size_t)>& part) {
        for (std::size_t i = 0; i < parts; ++i) part(i);
    }
    // Whether evict() takes a tensor out of every cache level. Then a round's
    // two calls share one flush (SweptRound, harness/swept_round.hpp): the call between
    // the flush and a side's own touched none of that side's lines but those of
    // its tensors, which are evicted before it.
    [[nodiscard]] virtual bool evicts_tensors() const { return false; }
    // With evict(): the memory the sides keep outside their tensors (state,
    // heap, static data) out of every cache level too (HOST,
    // host/side_memory.hpp). CUDA: nothing, the L2 flush covers it.
    virtual void evict_side_memory() {}
    // Just before each call from a flushed cache. HOST: threads a side made since
    // its last call, still on the timing thread's CPU alone, get the process's
    // CPUs for this one (timing_thread.hpp).
    virtual void release_side_threads() {}
    // The device's clocks now (CUDA: NVML, where the driver provides it); read
    // after each round, outside every window. nullopt: this backend has none.
    [[nodiscard]] virtual std::optional<ClockReading> read_clocks() { return std::nullopt; }
    // Milliseconds of one call by the backend's clock. HOST: from the call to its
    // return. CUDA: events, the window ending device-wide; everything the call left
    // on the device has finished before this returns.
    [[nodiscard]] virtual double time_call(const std::function<void()>& call) = 0;
    // Whether time_call's reading is the calling thread's own wall time (HOST), so
    // that the time the thread waited for its CPU is inside it; a CUDA reading is
    // the device's, which a waiting host thread may or may not have delayed.
    [[nodiscard]] virtual bool reads_thread_time() const { return false; }
    // Milliseconds of `count` calls issued back to back.
    [[nodiscard]] virtual double time_calls(const std::function<void()>& call, int count) = 0;
    // Starts noting the kernels calls launch; nullptr when this backend cannot see
    // them here (`why_no_launch_log` says why).
    [[nodiscard]] virtual std::unique_ptr<LaunchLog> log_launches() = 0;
    [[nodiscard]] virtual std::string why_no_launch_log() const { return {}; }
    // One call profiled, outside every timed sample. `label` names the side and
    // workload (CUDA: the NVTX range).
    [[nodiscard]] virtual Profile profile_call(const std::function<void()>& call, const std::string& label) = 0;
};

// flush_bytes: RunOptions::host_flush_bytes (0: twice the last-level cache).
[[nodiscard]] std::unique_ptr<Runtime> make_host_runtime(std::size_t flush_bytes);
// Throws BackendUnavailable when there is no device (a skip), BackendBroken when
// there is one that cannot be used (a failure). Its notices say when the device
// has no native code among `cuda_architectures` (the bench's, CMake's syntax).
[[nodiscard]] std::unique_ptr<Runtime> make_cuda_runtime(int device, std::string_view cuda_architectures = {});

}  // namespace forge::bench
