// The HOST backend: host memory, the monotonic clock on a pinned thread, the
// last-level cache evicted by a read-modify-write sweep, per-kernel tables from
// named regions.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "forge/eval/eval_keys.hpp"
#include "runtime/calibration.hpp"
#include "runtime/guarded_memory.hpp"
#include "runtime/host/cache_flush.hpp"
#include "runtime/host/compute_peak.hpp"
#include "runtime/host/flush_probe.hpp"
#include "runtime/host/memory_bandwidth.hpp"
#include "runtime/host/other_processes.hpp"
#include "runtime/host/side_memory.hpp"
#include "runtime/host/steal_time.hpp"
#include "runtime/host/sweep_crew.hpp"
#include "runtime/host/sysfs.hpp"
#include "runtime/host/timing_thread.hpp"
#include "runtime/host/uncached_copy.hpp"
#include "runtime/host/vector_extensions.hpp"
#include "runtime/kernel_calls.hpp"
#include "runtime/preemption.hpp"
#include "runtime/regions.hpp"
#include "runtime/runtime.hpp"
#include "runtime/timer.hpp"

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

// The 1, 5 and 15 minute load averages: how busy the machine was around the run.
nlohmann::json load_average() {
    std::ifstream in("/proc/loadavg");
    double one = 0.0;
    double five = 0.0;
    double fifteen = 0.0;
    if (!(in >> one >> five >> fifteen)) return nullptr;
    return {one, five, fifteen};
}

// The transparent huge page mode ("always", "madvise", "never"); empty where
// the kernel does not say. Under "never" the harness's advice is refused.
std::string transparent_huge_pages() {
    return selected_choice(first_line_of("/sys/kernel/mm/transparent_hugepage/enabled"));
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
    explicit HostRuntime(std::size_t flush_bytes)
        : sweep_helpers_(pin_.other_cpus(most_sweep_helpers)),
          // A flush the caller sized needs no measured one: the cache is only said.
          swept_(flush_bytes == 0 ? cache_to_sweep(sweep_helpers_) : CacheToSweep{last_level_cache(), std::nullopt}),
          flusher_(flush_bytes > 0 ? flush_bytes : 2 * swept_.cache().bytes, sweep_helpers_),
          probe_(probe_flush(flusher_, swept_.cache().bytes)),
          bandwidth_(measure_memory_bandwidth(bandwidth_buffer_bytes(flusher_.bytes()))),
          compute_(measure_compute_peak()), load_at_start_(load_average()), huge_pages_(transparent_huge_pages()),
          times_at_start_(read_cpu_times(pin_.cpu())), use_at_start_(read_processor_use()) {}

    [[nodiscard]] nlohmann::json device_facts() const override {
        const std::string cpufreq =
            "/sys/devices/system/cpu/cpu" + std::to_string(std::max(pin_.cpu(), 0)) + "/cpufreq/";
        const std::string governor = first_line_of(cpufreq + "scaling_governor");
        const nlohmann::json calibration_gbps = calibration_gbps_ ? nlohmann::json(*calibration_gbps_) : nullptr;
        return {{eval_key::name, cpu_model()},
                {"hardware_threads", std::thread::hardware_concurrency()},
                {"vector_extensions", cpu_vector_extensions()},
                {"pinned_cpu", pin_.cpu() >= 0 ? nlohmann::json(pin_.cpu()) : nlohmann::json(nullptr)},
                {"side_threads_released", pin_.released()},
                {"frequency_governor", governor.empty() ? nlohmann::json(nullptr) : nlohmann::json(governor)},
                {"load_average_at_start", load_at_start_},
                {"load_average_at_end", load_average()},
                {"cpu_steal_fraction", stolen() ? nlohmann::json(*stolen()) : nlohmann::json(nullptr)},
                {"other_processes", other_processes_json()},
                {"last_level_cache_bytes", swept_.cache().bytes},
                {"last_level_cache_source", swept_.cache().source},
                {"sweep_reach", sweep_reach_json()},
                {"flush_bytes", flusher_.bytes()},
                {"flush_threads", flusher_.threads()},
                {"flush", evicts_lines ? "read-modify-write of every cache line once per round, then before each "
                                         "call the side's inputs loaded past the caches, and its outputs' lines and "
                                         "the process's private writable memory outside the harness's own flushed"
                                       : "read-modify-write of every cache line before each call"},
                {"side_memory_bytes", side_memory_bytes_},
                {"memory_bandwidth",
                 {{"gbps", bandwidth_.gbps},
                  {"buffer_bytes", bandwidth_.bytes},
                  {"threads", bandwidth_.threads},
                  {"measured_again", bandwidth_measured_again_},
                  {"calibration_gbps", calibration_gbps}}},
                {"compute_peak",
                 {{"gflops", compute_.gflops},
                  {"threads", compute_.threads},
                  {"instructions",
                   compute_.instructions.empty() ? nlohmann::json(nullptr) : nlohmann::json(compute_.instructions)},
                  {"margin", compute_.margin},
                  {"measured_again", compute_measured_again_},
                  {"checked", compute_ceiling().has_value()}}},
                {"transparent_huge_pages", huge_pages_.empty() ? nlohmann::json(nullptr) : nlohmann::json(huge_pages_)},
                {"flush_probe",
                 {{"working_set_bytes", probe_.working_set_bytes},
                  {"warm_ms", probe_.warm_ms},
                  {"flushed_ms", probe_.flushed_ms},
                  {"effective", probe_.effective()}}},
                {"clock", kernel::calls_directly() ? "CLOCK_MONOTONIC, by system call"
                                                   : "CLOCK_MONOTONIC, through the C library's syscall()"}};
    }

    [[nodiscard]] std::vector<std::string> notices() const override {
        std::vector<std::string> out;
        if (!probe_.effective()) {
            out.push_back("the cache flush did not measurably evict: a working set re-read in " +
                          std::to_string(probe_.warm_ms) + " ms warm and " + std::to_string(probe_.flushed_ms) +
                          " ms after a flush, so cold samples may be warm");
        }
        if (flusher_.bytes() < 2 * swept_.cache().bytes) {
            out.push_back("the cache flush was set to " + std::to_string(flusher_.bytes()) +
                          " bytes, under twice the last-level cache (" + std::to_string(2 * swept_.cache().bytes) +
                          "): cold samples may be warm");
        }
        if (pin_.cpu() < 0) out.push_back("the timing thread could not be pinned to a CPU: samples may migrate");
        if (huge_pages_ == "never") {
            out.push_back("transparent huge pages are off (/sys/kernel/mm/transparent_hugepage/enabled is never), so "
                          "tensors sit on 4 KiB pages: after the cache flush a call can pay for TLB misses (on a VM, "
                          "up to 1.3 ms more in one call in five on a 512 KiB tensor); set it to madvise");
        }
        return out;
    }

    [[nodiscard]] std::vector<std::string> notices_after_run() const override {
        std::vector<std::string> out;
        if (const std::optional<double> fraction = stolen(); fraction && *fraction > noticeable_steal) {
            out.push_back("the hypervisor gave " + std::to_string(std::lround(*fraction * 100.0)) +
                          "% of the timing thread's CPU time during the run to other guests (steal time in "
                          "/proc/stat, device.cpu_steal_fraction): another virtual machine on this host was busy, and "
                          "a neighbour's load can move the ratio; compare with a run on a quiet host");
        }
        if (const std::optional<double> cpus = other_processes(); cpus && *cpus > noticeable_other_processes_cpus) {
            std::ostringstream notice;
            notice.precision(2);
            notice << "other processes kept " << *cpus << " of the machine's " << std::thread::hardware_concurrency()
                   << " CPUs busy on average during the run (/proc/stat's busy time less this bench's own CPU time, "
                      "device.other_processes): a neighbour shared the machine, and one that competes for memory "
                      "bandwidth or a core's vector units slows one side more than the other, so this ratio may not "
                      "hold on a quiet machine; rerun when nothing else runs";
            out.push_back(notice.str());
        }
        return out;
    }

    // Only where the flush evicts: a call served from the cache may beat the memory.
    [[nodiscard]] std::optional<MemoryCeiling> memory_ceiling() const override {
        if (!probe_.effective() || !(bandwidth_.gbps > 0.0)) return std::nullopt;
        std::string source =
            "the best of a " + std::to_string(bandwidth_.bytes >> 20) + " MiB buffer read by " +
            std::to_string(bandwidth_.threads) + " thread(s) " +
            (bandwidth_measured_again_ ? "at the run's start and again at its end" : "at the run's start");
        if (calibration_gbps_ && *calibration_gbps_ > bandwidth_.gbps) {
            return MemoryCeiling{.gbps = *calibration_gbps_,
                                 .margin = host_bandwidth_margin,
                                 .source = "the run's fastest memory calibration, " +
                                           std::to_string(memory_calibration_bytes >> 20) +
                                           " MiB evicted and read between rounds "
                                           "(device.memory_bandwidth.calibration_gbps), faster than " +
                                           source};
        }
        return MemoryCeiling{.gbps = bandwidth_.gbps,
                             .margin = host_bandwidth_margin,
                             .source = std::move(source) + " (device.memory_bandwidth)"};
    }

    // A neighbour that streamed memory while the run started (another bench on
    // the node) halves the reading: a reading past the ceiling first gets five
    // more measurements, a few tenths of a second apart, and the best. One
    // busy through the run's start and its end keeps them all low, so the
    // run's own fastest memory calibration, read between rounds all along,
    // stands too where it is faster.
    [[nodiscard]] std::optional<MemoryCeiling> memory_ceiling_measured_again(
        std::optional<double> calibration_gbps) override {
        if (!bandwidth_measured_again_) {
            keep_the_best_of_five_more(
                bandwidth_, [this] { return measure_memory_bandwidth(bandwidth_.bytes); }, &MemoryBandwidth::gbps);
            calibration_gbps_ = calibration_gbps;
            bandwidth_measured_again_ = true;
        }
        return memory_ceiling();
    }

    [[nodiscard]] std::optional<ComputeCeiling> compute_ceiling() const override {
        if (!(compute_.gflops > 0.0)) return std::nullopt;
        return ComputeCeiling{
            .gflops = compute_.gflops,
            .margin = compute_.margin,
            .source = "the best of " +
                      (compute_.instructions == "amx-int8" ? std::string("AMX int8 dot products")
                                                           : "fp32 " + compute_.instructions + " multiply-adds") +
                      " on " + std::to_string(compute_.threads) + " thread(s) " +
                      (compute_measured_again_ ? "at the run's start and again at its end" : "at the run's start") +
                      " (device.compute_peak)"};
    }

    // A neighbour busy on the CPUs when the run started lowers the reading, as
    // it does the memory's: measured again, a few times, before refusing.
    [[nodiscard]] std::optional<ComputeCeiling> compute_ceiling_measured_again() override {
        if (!compute_measured_again_) {
            keep_the_best_of_five_more(compute_, measure_compute_peak, &ComputePeak::gflops);
            compute_measured_again_ = true;
        }
        return compute_ceiling();
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

    void evict(const Tensor& tensor) override {
        share_lines(tensor.raw(), tensor.bytes(),
                    [&](std::size_t begin, std::size_t end) { evict_lines(tensor.raw() + begin, end - begin); });
    }
    void copy_uncached(const Tensor& from, Tensor& to) override {
        share_lines(to.raw(), std::min(from.bytes(), to.bytes()), [&](std::size_t begin, std::size_t end) {
            bench::copy_uncached(to.raw() + begin, from.raw() + begin, end - begin);
        });
    }
    void share_lines(const std::byte* data, std::size_t bytes,
                     const std::function<void(std::size_t, std::size_t)>& range) override {
        bench::share_lines(flusher_.crew(), data, bytes, range);
    }
    void run_parts(std::size_t parts, const std::function<void(std::size_t)>& part) override {
        flusher_.crew().run(parts, part);
    }
    [[nodiscard]] bool evicts_tensors() const override { return evicts_lines; }

    void evict_side_memory() override { side_memory_bytes_ = std::max(side_memory_bytes_, bench::evict_side_memory()); }

    void release_side_threads() override { pin_.release_side_threads(); }

    [[nodiscard]] double time_call(const std::function<void()>& call) override { return time_calls(call, 1); }
    [[nodiscard]] bool reads_thread_time() const override { return true; }

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

    // The call's time and each region's leave out what another process took
    // from their CPU, as a timed call's does (Round::reference_call_ms), and
    // (unmarked) the regions' readings of it. HOST sees no work a call leaves to
    // threads of its own (docs/design/threat-model.md): `late` stays empty.
    [[nodiscard]] Profile profile_call(const std::function<void()>& call, const std::string&) override {
        std::vector<KernelRow> rows;
        double call_ms = 0.0;
        double readings_ns = 0.0;
        {
            RegionRecording recording;
            const WatchedReading reading = scheduler_.watch([&] { return time_call(call); });
            call_ms = reading.ms - reading.foreign_wait_ms().value_or(0.0);
            rows = recording.rows();
            readings_ns = recording.readings_ns();
        }
        Profile profile;
        double marked_ns = 0.0;
        for (const KernelRow& row : rows) {
            marked_ns += row.time_ns;
            profile.launched.insert(row.name);
        }
        // Regions on other threads can add up to more than the call's time.
        const double unmarked_ns = std::max(0.0, call_ms * 1e6 - marked_ns - readings_ns);
        rows.push_back(KernelRow{std::string(unmarked_region_row), 1, unmarked_ns, 0.0});
        profile.kernels = merge_by_name(std::move(rows));
        profile.kernels.profiler = ProfilerDigest{profile.kernels.total_ns(), 1};
        return profile;
    }

private:
    // A call that reads and writes can move a little more than the read-only
    // reading, and a neighbour lowers the reading: only twice it is beyond doubt
    // (docs/design/threat-model.md; the figures: docs/lab/README.md).
    static constexpr double host_bandwidth_margin = 2.0;

    // Five more measurements a few tenths of a second apart, `best` becoming the
    // one whose `figure` is highest: a neighbour lowers a reading, none raises it.
    template <typename Reading, typename Measure>
    static void keep_the_best_of_five_more(Reading& best, Measure measure, double Reading::*figure) {
        for (int attempt = 0; attempt < 5; ++attempt) {
            if (attempt > 0) std::this_thread::sleep_for(std::chrono::milliseconds(200));
            Reading again = measure();
            if (again.*figure > best.*figure) best = std::move(again);
        }
    }

    [[nodiscard]] nlohmann::json sweep_reach_json() const {
        if (!swept_.reach) return nullptr;
        const SweepReach& reach = *swept_.reach;
        nlohmann::json readings = nlohmann::json::array();
        for (const SweepReach::Reading& r : reach.readings) {
            readings.push_back({{"bytes", r.bytes}, {"ms", r.ms}, {"evicted_fraction", r.evicted_fraction}});
        }
        return {{"reported_bytes", swept_.reported.bytes},
                {"working_set_bytes", reach.working_set_bytes},
                {"warm_ms", reach.warm_ms},
                {"evicted_ms", reach.evicted_ms},
                {"readings", readings}};
    }

    // Four times the flush (itself twice the last-level cache), 64-256 MiB:
    // smaller than a cache the reading comes out higher, which only makes the
    // ceiling lenient.
    static std::size_t bandwidth_buffer_bytes(std::size_t flush_bytes) {
        return std::clamp<std::size_t>(4 * flush_bytes, std::size_t{64} << 20, std::size_t{256} << 20);
    }

    // The sweep's helpers beside the timing thread: four cores' misses in
    // flight reach most machines' memory bandwidth (measured on two only).
    static constexpr std::size_t most_sweep_helpers = 3;

    TimingThreadPin pin_;  // first: the flush probe already runs pinned
    SchedulerWatch scheduler_;  // the timing thread's
    std::vector<int> sweep_helpers_;  // the CPUs the sweep's helpers are pinned to
    CacheToSweep swept_;              // its cache() is the one the flush is twice of
    CacheFlusher flusher_;
    FlushProbe probe_;
    std::size_t side_memory_bytes_ = 0;  // the most evict_side_memory() flushed before one call
    MemoryBandwidth bandwidth_;
    bool bandwidth_measured_again_ = false;   // memory_ceiling_measured_again()
    std::optional<double> calibration_gbps_;  // given to memory_ceiling_measured_again()
    ComputePeak compute_;
    bool compute_measured_again_ = false;  // compute_ceiling_measured_again()
    nlohmann::json load_at_start_;
    std::string huge_pages_;  // transparent_huge_pages()
    std::optional<CpuTimes> times_at_start_;  // the timing thread's CPU's, or all CPUs' where unpinned

    std::optional<ProcessorUse> use_at_start_;  // the whole machine's and this process's

    // The CPUs other processes kept busy on average since the runtime was made.
    [[nodiscard]] std::optional<double> other_processes() const {
        const std::optional<ProcessorUse> now = read_processor_use();
        if (!use_at_start_ || !now) return std::nullopt;
        return other_processes_cpus(*use_at_start_, *now, proc_stat_ticks_per_s());
    }

    [[nodiscard]] nlohmann::json other_processes_json() const {
        const std::optional<double> cpus = other_processes();
        if (!cpus) return nullptr;
        return {{"cpus", *cpus}, {"neighbour", *cpus > noticeable_other_processes_cpus}};
    }

    // The share of the timing thread's CPU stolen since the runtime was made.
    [[nodiscard]] std::optional<double> stolen() const {
        const std::optional<CpuTimes> now = read_cpu_times(pin_.cpu());
        if (!times_at_start_ || !now) return std::nullopt;
        return steal_fraction(*times_at_start_, *now);
    }
};

}  // namespace

std::unique_ptr<Runtime> make_host_runtime(std::size_t flush_bytes) { return std::make_unique<HostRuntime>(flush_bytes); }

}  // namespace forge::bench
