#include <iostream>
#include <map>

#include "commands.hpp"
#include "forge/credit/credit.hpp"
#include "forge/credit/gate.hpp"
#include "forge/ctest/measurement.hpp"
#include "forge/exit_code.hpp"
#include "forge/report/credit_view.hpp"

namespace forge::cli {

namespace {

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

void print_measurements(const EvalReport& eval, const RunCredit& run) {
    const std::optional<RatioCi> credited_ci = eval.ratio_ci ? credited_ratio_ci(run, *eval.ratio_ci) : std::nullopt;
    const auto low = [](const std::optional<RatioCi>& ci) { return ci ? std::optional(ci->low) : std::nullopt; };
    const auto high = [](const std::optional<RatioCi>& ci) { return ci ? std::optional(ci->high) : std::nullopt; };
    const std::pair<const char*, std::optional<double>> figures[] = {
        {"raw_ratio", run.raw_ratio},
        {"raw_ratio_ci_low", low(eval.ratio_ci)},
        {"raw_ratio_ci_high", high(eval.ratio_ci)},
        {"credited_ratio", run.credited_ratio},
        {"credited_ratio_ci_low", low(credited_ci)},
        {"credited_ratio_ci_high", high(credited_ci)},
        {"reference_ms", eval.reference_ms},
        {"student_ms", eval.student_ms},
        {"student_priced_fraction", run_priced_fraction(run, Side::student)},
        {"reference_priced_fraction", run_priced_fraction(run, Side::reference)},
    };
    for (const auto& [name, value] : figures) {
        if (!value) continue;
        if (const std::optional<std::string> line = ctest_measurement(name, *value)) std::cout << *line << '\n';
    }
}

// Priced regexes that matched nothing on a run that succeeded: the credit test
// fails, naming each entry, its regex and the payer's rows, once per distinct
// message with the workloads it holds for. Returns how many were reported.
std::size_t report_unmatched(const EvalReport& eval, const RunCredit& run) {
    std::map<std::string, std::string> workloads_of;  // message -> "a, b"
    std::vector<std::string> order;
    for (const WorkloadCredit& workload : run.workloads) {
        if (!workload.credit) continue;
        for (const CreditReason& reason : workload.credit->why) {
            if (reason.code != credit_code::regex_unmatched) continue;
            auto [it, fresh] = workloads_of.try_emplace(reason.message, workload.name);
            if (fresh) order.push_back(reason.message);
            else it->second += ", " + workload.name;
        }
    }
    for (const std::string& message : order) {
        std::cerr << eval.path << ": error[" << credit_code::regex_unmatched << "] (workloads " << workloads_of[message]
                  << "): " << message << '\n';
    }
    return order.size();
}

}  // namespace

int run_credit(const CreditOptions& options) {
    const std::optional<WindowContract> contract = accepted_contract(options.contract);
    if (!contract) return exit_code::refused;
    const std::optional<EvalReport> eval = existing_eval(options.eval);
    if (!eval) return exit_code::skipped;

    const RunCredit run = credit_run(*contract, *eval);
    switch (options.output.format) {
        case Format::json: std::cout << to_json(run).dump(2) << '\n'; break;
        case Format::markdown: render_credit_markdown(std::cout, *eval, run); break;
        case Format::text: render_credit_text(std::cout, *eval, run, options.output.colour); break;
    }
    // A failed bench's figures are no verdict: none go to the dashboard.
    if (eval->failed()) {
        std::cerr << "forge credit: " << eval->path << ": the bench failed: " << eval->failure()
                  << "\n  Fix what the bench reports and rerun it; until then it has no ratio to credit.\n";
        return exit_code::problems;
    }
    if (options.ctest) print_measurements(*eval, run);
    if (report_unmatched(*eval, run) > 0) return exit_code::problems;

    if (!options.gate) return exit_code::ok;
    if (!run.raw_ratio) {
        std::cerr << "forge credit: --gate " << *options.gate << ": " << eval->path
                  << " has no raw ratio to hold to it (no performance.ratio, no workload readings)\n";
        return exit_code::problems;
    }
    const GateDecision decision = gate_decision(*options.gate, *run.raw_ratio, eval->ratio_ci);
    switch (decision.outcome) {
        case GateOutcome::pass: std::cout << "forge credit: gate held: " << decision.message << '\n'; return exit_code::ok;
        case GateOutcome::fail: std::cerr << "forge credit: gate failed: " << decision.message << '\n'; return exit_code::problems;
        case GateOutcome::near_tie: std::cerr << "forge credit: near-tie: " << decision.message << '\n'; return exit_code::near_tie;
    }
    return exit_code::problems;
}

}  // namespace forge::cli
