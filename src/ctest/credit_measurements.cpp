#include "forge/ctest/credit_measurements.hpp"

#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include "forge/ctest/measurement.hpp"
#include "forge/stats/ratio_interval.hpp"

namespace forge {

namespace {

// The longest figure a workload's name is followed by, ".raw_ratio_ci_high",
// and the "workload." before it leave this much of a name within CDash's limit.
constexpr std::size_t workload_name_limit = 40;

class Lines {
public:
    void number(std::string_view name, std::optional<double> value) {
        if (!value) return;
        if (std::optional<std::string> line = ctest_measurement(name, *value)) lines_.push_back(std::move(*line));
    }
    void text(std::string_view name, const std::optional<std::string>& value) {
        if (value) lines_.push_back(ctest_text_measurement(name, *value));
    }
    void interval(std::string_view name, const std::optional<RatioCi>& ci) {
        if (!ci) return;
        number(std::string(name) + "_ci_low", ci->low);
        number(std::string(name) + "_ci_high", ci->high);
    }
    [[nodiscard]] std::vector<std::string> take() && { return std::move(lines_); }

private:
    std::vector<std::string> lines_;
};

// A side's priced share over the run: the mean of its workloads' shares.
std::optional<double> run_priced_fraction(const RunCredit& run, Side side) {
    double sum = 0.0;
    std::size_t count = 0;
    for (const WorkloadCredit& workload : run.workloads) {
        if (!workload.credit) continue;
        sum += workload.credit->side(side).fraction;
        ++count;
    }
    if (count == 0) return std::nullopt;
    return sum / static_cast<double>(count);
}

// Half the interval's width over the ratio (0.01: +/-1%), as the bench's precision target reads.
std::optional<double> precision(std::optional<double> ratio, const std::optional<RatioCi>& ci) {
    if (!ratio || !ci || !(*ratio > 0.0)) return std::nullopt;
    return stats::RatioInterval{*ratio, ci->low, ci->high}.relative_half_width();
}

// Each workload's name as a measurement prefix, distinct even where two names
// differ only in characters a measurement name cannot hold.
std::vector<std::string> workload_prefixes(const EvalReport& eval) {
    std::vector<std::string> prefixes;
    std::set<std::string> taken;
    for (std::size_t i = 0; i < eval.workloads.size(); ++i) {
        std::string name = ctest_measurement_name(eval.workloads[i].name, workload_name_limit);
        if (name.empty() || !taken.insert(name).second) {
            name = ctest_measurement_name(eval.workloads[i].name, workload_name_limit - 6);
            name += '-';
            name += std::to_string(i);
            taken.insert(name);
        }
        prefixes.push_back("workload." + name + '.');
    }
    return prefixes;
}

std::optional<double> credited(const RunCredit& run, std::size_t workload) {
    if (workload >= run.workloads.size() || !run.workloads[workload].ratio) return std::nullopt;
    return run.workloads[workload].ratio->credited_ratio;
}

}  // namespace

std::vector<std::string> credit_measurements(const EvalReport& eval, const RunCredit& run) {
    Lines out;
    out.number("raw_ratio", run.raw_ratio);
    out.interval("raw_ratio", eval.ratio_ci);
    out.number("credited_ratio", run.credited_ratio);
    out.interval("credited_ratio", eval.ratio_ci ? credited_ratio_ci(run, *eval.ratio_ci) : std::nullopt);
    out.text("verdict", eval.verdict);
    out.number("raw_ratio_precision", precision(eval.ratio, eval.ratio_ci));
    if (eval.precision_reached) out.text("precision_reached", *eval.precision_reached ? "true" : "false");
    out.number("reference_ms", eval.reference_ms);
    out.number("student_ms", eval.student_ms);
    out.number("student_priced_fraction", run_priced_fraction(run, Side::student));
    out.number("reference_priced_fraction", run_priced_fraction(run, Side::reference));
    // Where the bench declared its work: each side's throughput over the workloads.
    for (const Side side : {Side::reference, Side::student}) {
        const Throughput& throughput = side == Side::student ? eval.student_throughput : eval.reference_throughput;
        const std::string name(to_string(side));
        out.number(name + "_gflops", throughput.gflops);
        out.number(name + "_gbps", throughput.gbps);
        out.number(name + "_peak_dram_bandwidth_fraction", throughput.peak_dram_bandwidth_fraction);
    }
    const std::vector<std::string> prefixes = workload_prefixes(eval);
    for (std::size_t i = 0; i < eval.workloads.size(); ++i) {
        const WorkloadReading& workload = eval.workloads[i];
        const std::string& prefix = prefixes[i];
        out.number(prefix + "raw_ratio", workload.ratio);
        out.interval(prefix + "raw_ratio", workload.ratio_ci);
        out.number(prefix + "credited_ratio", credited(run, i));
        out.text(prefix + "verdict", workload.verdict);
        out.number(prefix + "reference_ms", workload.reference.ms);
        out.number(prefix + "student_ms", workload.student.ms);
    }
    return std::move(out).take();
}

}  // namespace forge
