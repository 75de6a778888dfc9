// The HOST backend: host memory, the monotonic clock, the last-level cache
// flushed by writes, per-kernel tables from named regions.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cache_flush.hpp"
#include "guarded_memory.hpp"
#include "regions.hpp"
#include "runtime.hpp"
#include "timer.hpp"

namespace forge::bench {

namespace {

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("model name")) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) return line.substr(line.find_first_not_of(" \t", colon + 1));
        }
    }
    return "unknown CPU";
}

// HOST's kernels are the named regions a call enters.
class RegionLaunchLog final : public LaunchLog {
public:
    [[nodiscard]] KernelNames names() const override { return log_.names(); }

private:
    RegionNameLog log_;
};

class HostRuntime final : public Runtime {
public:
    HostRuntime() : cache_(last_level_cache()), flusher_(2 * cache_.bytes) {}

    [[nodiscard]] nlohmann::json device_facts() const override {
        return {{"name", cpu_model()},
                {"hardware_threads", std::thread::hardware_concurrency()},
                {"last_level_cache_bytes", cache_.bytes},
                {"last_level_cache_source", cache_.source},
                {"flush_bytes", flusher_.bytes()},
                {"clock", "steady_clock"}};
    }

    [[nodiscard]] Stream stream() const override { return nullptr; }

    [[nodiscard]] Tensor allocate(const TensorSpec& spec) override { return allocate_guarded(spec); }

    [[nodiscard]] std::optional<std::string_view> damaged_guard(const Tensor& tensor) const override {
        return bench::damaged_guard(tensor);
    }

    void copy(const Tensor& from, Tensor& to) override { std::memcpy(to.raw(), from.raw(), std::min(from.bytes(), to.bytes())); }

    void fill_bytes(Tensor& tensor, unsigned char value) override { std::memset(tensor.raw(), value, tensor.bytes()); }

    void synchronize() override {}

    void flush_cache() override { flusher_.flush(); }

    [[nodiscard]] double time_call(const std::function<void()>& call) override { return time_calls(call, 1); }

    [[nodiscard]] double time_calls(const std::function<void()>& call, int count) override {
        // One read first: the flush evicted the clock's code and data, and those
        // misses are the harness's, not the call's.
        (void)now_ns();
        compiler_barrier();
        const std::int64_t start = now_ns();
        for (int i = 0; i < count; ++i) call();
        compiler_barrier();
        return static_cast<double>(now_ns() - start) * 1e-6;
    }

    [[nodiscard]] std::unique_ptr<LaunchLog> log_launches() override { return std::make_unique<RegionLaunchLog>(); }

    // HOST sees no work a call leaves to threads of its own (the README's threat
    // model): `late` stays empty.
    [[nodiscard]] Profile profile_call(const std::function<void()>& call, const std::string&) override {
        std::vector<KernelRow> rows;
        double wall_ns = 0.0;
        {
            RegionRecording recording;
            wall_ns = time_call(call) * 1e6;
            rows = recording.rows();
        }
        Profile profile;
        double marked_ns = 0.0;
        for (const KernelRow& row : rows) {
            marked_ns += row.time_ns;
            profile.launched.insert(row.name);
        }
        // Regions on other threads can add up to more than the call's wall time.
        rows.push_back(KernelRow{unmarked_row, 1, std::max(0.0, wall_ns - marked_ns), 0.0});
        profile.kernels = merge_by_name(std::move(rows));
        profile.kernels.profiler = ProfilerDigest{profile.kernels.total_ns(), 1};
        return profile;
    }

private:
    CacheSize cache_;
    CacheFlusher flusher_;
};

}  // namespace

std::unique_ptr<Runtime> make_host_runtime() { return std::make_unique<HostRuntime>(); }

}  // namespace forge::bench
