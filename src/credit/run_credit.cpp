#include "forge/credit/credit.hpp"
#include "forge/stats/summary.hpp"
#include "priced_entries.hpp"

namespace forge {

using stats::geometric_mean;

namespace {

// The workloads' reference_ms / student_ms, when every workload has both.
std::optional<double> workloads_raw_ratio(const std::vector<WorkloadReading>& workloads) {
    std::vector<double> ratios;
    for (const WorkloadReading& w : workloads) {
        if (!w.reference.ms || !w.student.ms || !(*w.reference.ms > 0) || !(*w.student.ms > 0)) return std::nullopt;
        ratios.push_back(*w.reference.ms / *w.student.ms);
    }
    if (ratios.empty()) return std::nullopt;
    return geometric_mean(ratios);
}

}  // namespace

std::optional<RatioCi> credited_ratio_ci(const RunCredit& run, const RatioCi& raw) {
    if (!run.credited_ratio || !run.raw_ratio || !(*run.raw_ratio > 0.0)) return std::nullopt;
    // Scaled by credited / raw of the run's own two points: the bench's raw
    // ratio (a median of paired rounds) need not equal the ratio of the sides'
    // medians the credit starts from, and the interval must hold its own ratio.
    const double scale = *run.credited_ratio / *run.raw_ratio;
    return RatioCi{raw.low * scale, raw.high * scale};
}

RunCredit credit_run(const WindowContract& contract, const EvalReport& eval) {
    const credit_detail::PricedEntries priced(contract);
    RunCredit run;
    run.workloads.reserve(eval.workloads.size());
    std::vector<double> credited;
    for (const WorkloadReading& w : eval.workloads) {
        WorkloadCredit out{w.name, std::nullopt, std::nullopt};
        if (!priced.empty()) out.credit = priced.price(w.student, w.reference, table_rows(eval));
        out.ratio = credited_ratio(out.credit, w.student.ms, w.reference.ms);
        if (out.ratio) credited.push_back(out.ratio->credited_ratio);
        run.workloads.push_back(std::move(out));
    }
    run.raw_ratio = eval.ratio ? eval.ratio : workloads_raw_ratio(eval.workloads);
    if (!credited.empty() && credited.size() == run.workloads.size()) run.credited_ratio = geometric_mean(credited);
    return run;
}

}  // namespace forge
