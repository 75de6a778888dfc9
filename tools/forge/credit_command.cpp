#include <iostream>

#include "commands.hpp"
#include "forge/credit/credit.hpp"
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
    const std::pair<const char*, std::optional<double>> figures[] = {
        {"raw_ratio", run.raw_ratio},
        {"credited_ratio", run.credited_ratio},
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
    if (options.ctest) print_measurements(*eval, run);

    if (!options.gate) return exit_code::ok;
    if (!run.raw_ratio) {
        std::cerr << "forge credit: --gate " << *options.gate << ": " << eval->path
                  << " has no raw ratio to hold to it (no performance.ratio, no workload readings)\n";
        return exit_code::problems;
    }
    if (*run.raw_ratio < *options.gate) {
        std::cerr << "forge credit: raw ratio " << *run.raw_ratio << " is below the gate " << *options.gate << '\n';
        return exit_code::problems;
    }
    return exit_code::ok;
}

}  // namespace forge::cli
