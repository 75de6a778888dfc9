#include "forge/report/summary.hpp"

#include <algorithm>
#include <ostream>

#include "forge/contract/check.hpp"
#include "forge/credit/credit.hpp"
#include "forge/prep/prep_check.hpp"
#include "forge/report/text_table.hpp"
#include "number_format.hpp"

namespace forge {

namespace {

std::string correctness_of(const EvalReport& eval) {
    if (!eval.correctness_passed) return "not reported";
    return *eval.correctness_passed ? "passed" : "FAILED";
}

// " (regex-unmatched in 3 workloads, ...)": why the run has no credited ratio.
std::string unusable_because(const RunCredit& run) {
    std::vector<std::pair<std::string, std::size_t>> counts;  // code, workloads; in order of appearance
    for (const WorkloadCredit& workload : run.workloads) {
        if (!workload.credit) continue;
        std::vector<std::string> codes;  // once per workload, even when both sides give one
        for (const CreditReason& reason : workload.credit->why) {
            if (std::find(codes.begin(), codes.end(), reason.code) == codes.end()) codes.push_back(reason.code);
        }
        for (const std::string& code : codes) {
            const auto it = std::find_if(counts.begin(), counts.end(),
                                         [&](const auto& count) { return count.first == code; });
            if (it == counts.end()) counts.emplace_back(code, 1);
            else ++it->second;
        }
    }
    if (counts.empty()) return {};
    std::string out;
    for (const auto& [code, workloads] : counts) {
        out += (out.empty() ? " (" : ", ") + code + " in " + std::to_string(workloads) + " workload" +
               (workloads == 1 ? "" : "s");
    }
    return out + ")";
}

// The prep status and the credited ratio need the contract the bench ran under.
// Returns the workloads' credits where they could be priced.
std::optional<RunCredit> hold_to_contract(OperatorSummary& row, const EvalReport& eval) {
    if (!eval.contract) {
        row.prep = "no contract";
        row.notes.emplace_back("the eval names no contract: prep and credit not checked");
        return std::nullopt;
    }
    const ContractCheck check = check_contract(*eval.contract);
    if (check.refused()) {
        row.prep = "contract refused";
        row.notes.push_back(*eval.contract + " is refused: run `forge check` on it");
        return std::nullopt;
    }
    const WindowContract& contract = *check.contract;
    if (!eval.measured_under(contract)) {
        row.prep = "contract changed";
        row.notes.push_back(eval.measured_under_another(contract) +
                            ": prep and credit not checked; rerun the bench");
        return std::nullopt;
    }
    std::vector<PrepProblem> problems = check_prep(contract, eval);
    std::erase_if(problems, [](const PrepProblem& p) { return p.code == prep_code::eval_incorrect; });
    if (!problems.empty()) {
        row.prep = std::to_string(problems.size()) + " problem(s)";
        // The first one said here, so a count is never the report's last word on it.
        row.notes.push_back("prep: " + problems.front().message +
                            (problems.size() > 1 ? " (and " + std::to_string(problems.size() - 1) + " more)" : "") +
                            ": `forge prep` lists them");
    } else {
        row.prep = contract.prep_entries().empty() ? "not needed" : "held";
    }

    try {
        RunCredit run = credit_run(contract, eval);
        row.credited_ratio = run.credited_ratio;
        if (!row.raw_ratio) row.raw_ratio = run.raw_ratio;
        if (!run.credited_ratio && !contract.priced_entries().empty()) {
            row.notes.push_back("credit not usable" + unusable_because(run) + ": `forge credit` says what to fix");
        }
        std::string unpriced;
        for (const Asymmetry& entry : contract.asymmetries) {
            if (entry.unpriced()) unpriced += (unpriced.empty() ? "" : ", ") + entry.subject();
        }
        if (run.credited_ratio && !unpriced.empty()) {
            row.notes.push_back("the credited ratio leaves in the work of price entries with no regex yet: " +
                                unpriced);
        }
        return run;
    } catch (const CreditError& e) {
        row.notes.emplace_back(e.what());
        return std::nullopt;
    }
}

// What the bench caught or flagged, so a ratio is never read without it.
void note_bench_findings(OperatorSummary& row, const EvalReport& eval) {
    if (eval.failed()) row.notes.push_back("bench: " + eval.failure());
    if (eval.build_optimized == false) {
        row.notes.push_back("unoptimised: the bench was built without optimisation (build type '" +
                            eval.build_type.value_or("") + "'), so its ratio says little about the kernels; "
                            "configure with -DCMAKE_BUILD_TYPE=Release");
    }
    if (eval.quick) {
        row.notes.emplace_back("quick run: the bench ran with --quick (FORGE_BENCH_QUICK), fewer rounds and a looser "
                               "precision target, to show the card works; measure a ratio to keep without it");
    }
    if (eval.reference_options && eval.student_options) {
        if (const std::string alone = options_one_side_has_alone(*eval.reference_options, *eval.student_options);
            !alone.empty()) {
            row.notes.push_back("compiled differently: " + alone + ", so the ratio measures the options too");
        }
    }
    if (eval.precision_reached == false) {
        row.notes.emplace_back("precision not reached: the ratio's interval stopped short of its target (the "
                               "bench's time or round cap came first, or its layouts read too far apart for more "
                               "rounds to narrow it); read the interval, not the point");
    }
    if (eval.busier_machine == true) {
        row.notes.emplace_back("busier machine: the rounds of this run read the machine busier than the bench's "
                               "earlier runs here did, and another load's memory traffic moves a memory-bound side "
                               "more than the other (rerun on a quieter machine)");
    } else {
        std::string busy;
        for (const WorkloadReading& w : eval.workloads) {
            if (w.between_runs && w.between_runs->reaches_earlier_runs.value_or(false))
                busy += (busy.empty() ? "" : ", ") + w.name;
        }
        if (!busy.empty()) {
            row.notes.push_back("busy workloads (" + busy + "): their rounds were not quiet, so their intervals "
                                "reach the bench's earlier runs' ratios too (rerun on a quieter machine)");
        }
    }
    if (eval.machine.neighbour_cpus) {
        row.notes.push_back("beside a neighbour: other processes kept " + fixed(*eval.machine.neighbour_cpus, 2) +
                            " CPUs busy on average during the run (device.other_processes), and one that competes "
                            "for memory bandwidth or a core's vector units slows one side more than the other "
                            "(rerun when nothing else runs)");
    }
    for (const Side side : {Side::reference, Side::student}) {
        std::string workloads;
        for (const WorkloadReading& w : eval.workloads) {
            if (w.side(side).kernel_set_changed.value_or(false)) workloads += (workloads.empty() ? "" : ", ") + w.name;
        }
        if (workloads.empty()) continue;
        row.notes.push_back("the " + std::string(to_string(side)) + "'s kernel set changed between samples (" +
                            workloads + "): its per-kernel table, and any credit, describe only the profiled call");
    }
}

std::string interval_cell(const OperatorSummary& row) {
    if (!row.ratio_ci) return "-";
    return interval(row.ratio_ci->low, row.ratio_ci->high);
}

std::string verdict_cell(const OperatorSummary& row, const std::vector<OperatorSummary>& rows) {
    std::string out = row.verdict.value_or("-");
    if (row.precision_reached == false) out += " (imprecise)";
    if (row.quick) out += " (quick)";
    if (row.a_a) out.append(" (A/A, resolves +/-").append(percent(row.a_a->resolves)).append(")");
    if (const std::optional<double> floor = noise_floor_for(row, rows)) {
        out.append(" (noise floor +/-").append(percent(*floor)).append(")");
    }
    // A ratio between calls that disagree on their outputs is no result, even where colour is off.
    if (row.verdict && row.correctness == "FAILED") out += " (outputs FAILED)";
    return out;
}

std::string bandwidth_cell(const Throughput& throughput) {
    return bandwidth(throughput.gbps, throughput.peak_dram_bandwidth_fraction);
}

// The throughput columns appear only when some operator declared that count.
struct ThroughputColumns {
    bool flops = false;
    bool bytes = false;
};

ThroughputColumns throughput_columns(const std::vector<OperatorSummary>& rows) {
    ThroughputColumns out;
    for (const OperatorSummary& row : rows) {
        for (const Throughput* side : {&row.reference_throughput, &row.student_throughput}) {
            out.flops = out.flops || side->gflops.has_value();
            out.bytes = out.bytes || side->gbps.has_value();
        }
    }
    return out;
}

std::vector<std::string> cells_of(const OperatorSummary& row, const std::vector<OperatorSummary>& rows,
                                  ThroughputColumns shown) {
    std::vector<std::string> cells{row.name, row.backend.empty() ? "-" : row.backend, std::to_string(row.workloads),
                                   fixed(row.reference_ms, 4), fixed(row.student_ms, 4)};
    if (shown.flops) {
        cells.push_back(rate(row.reference_throughput.gflops));
        cells.push_back(rate(row.student_throughput.gflops));
    }
    if (shown.bytes) {
        cells.push_back(bandwidth_cell(row.reference_throughput));
        cells.push_back(bandwidth_cell(row.student_throughput));
    }
    cells.insert(cells.end(), {fixed(row.raw_ratio, 3), interval_cell(row), verdict_cell(row, rows),
                               fixed(row.credited_ratio, 3), row.prep, row.correctness});
    return cells;
}

TextTable summary_table(const std::vector<OperatorSummary>& rows) {
    const ThroughputColumns shown = throughput_columns(rows);
    std::vector<Column> columns{{"operator"},
                                {"backend"},
                                {"workloads", Align::right},
                                {"reference ms", Align::right},
                                {"student ms", Align::right}};
    if (shown.flops) {
        columns.push_back({"reference GFLOP/s", Align::right});
        columns.push_back({"student GFLOP/s", Align::right});
    }
    if (shown.bytes) {
        columns.push_back({"reference GB/s", Align::right});
        columns.push_back({"student GB/s", Align::right});
    }
    columns.insert(columns.end(), {{"raw ratio", Align::right},
                                   {"95% interval", Align::right},
                                   {"verdict"},
                                   {"credited", Align::right},
                                   {"prep"},
                                   {"correctness"}});
    TextTable table(std::move(columns));
    for (const OperatorSummary& row : rows) {
        table.add_row(cells_of(row, rows, shown), row.healthy() ? Emphasis::none : Emphasis::bad);
    }
    return table;
}

void render_notes(std::ostream& out, const std::vector<OperatorSummary>& rows, std::string_view bullet) {
    for (const OperatorSummary& row : rows) {
        for (const std::string& note : row.notes) out << bullet << row.name << ": " << note << '\n';
    }
}

// What the columns hold, so a report read alone (a pull-request comment, a log)
// needs no README beside it.
constexpr std::string_view legend =
    "Columns: ms, each side's geometric mean over the workloads; raw ratio, reference / student from paired "
    "rounds, with its 95% interval; verdict, faster or slower when the interval clears 1, indistinguishable "
    "when it holds 1, (imprecise) when it is wider than the bench's precision target, (quick) from a --quick run, "
    "(A/A) a side timed against itself (the bench's --a-a) and the smallest change from 1 it tells apart, "
    "(noise floor) that change beside the verdict of the same operator; "
    "credited, the raw ratio with the contract's priced work taken out (- when nothing is priced or the credit "
    "is not usable: the notes say which); prep, the prep step's tensors held to window.toml.";

}  // namespace

bool OperatorSummary::healthy() const noexcept {
    return ran && correctness == "passed" && (prep == "held" || prep == "not needed" || a_a.has_value());
}

std::optional<double> noise_floor_for(const OperatorSummary& row, const std::vector<OperatorSummary>& rows) {
    if (row.a_a || !row.ran) return std::nullopt;
    std::optional<double> floor;
    for (const OperatorSummary& other : rows) {
        if (other.a_a && other.operator_name == row.operator_name) {
            floor = std::max(floor.value_or(0.0), other.a_a->resolves);
        }
    }
    return floor;
}

OperatorReport read_operator(const std::string& eval_path) {
    OperatorReport out;
    OperatorSummary& row = out.summary;
    row.eval_path = eval_path;
    row.name = eval_path;
    out.eval = load_eval(eval_path);
    const std::optional<EvalReport>& eval = out.eval;
    if (!eval) {
        row.prep = "not run";
        row.correctness = "not run";
        row.notes.emplace_back("no eval file at this path: the bench has not written one here (it did not run, or the "
                               "path is not its --eval)");
        return out;
    }
    row.name = eval->operator_name.value_or(eval_path);
    row.operator_name = eval->operator_name.value_or("");
    row.backend = eval->backend.value_or("");
    if (eval->skipped) {
        row.skipped = eval->skipped;
        row.prep = "skipped";
        row.correctness = "skipped";
        row.notes.push_back("skipped: " + *eval->skipped);
        return out;
    }
    row.ran = true;
    row.workloads = eval->workloads.size();
    row.reference_ms = eval->reference_ms;
    row.student_ms = eval->student_ms;
    row.reference_throughput = eval->reference_throughput;
    row.student_throughput = eval->student_throughput;
    row.raw_ratio = eval->ratio;
    row.ratio_ci = eval->ratio_ci;
    row.verdict = eval->verdict;
    row.precision_reached = eval->precision_reached;
    row.quick = eval->quick;
    row.correctness = correctness_of(*eval);
    note_bench_findings(row, *eval);
    try {
        out.history = read_run_history(*eval);
    } catch (const EvalError& e) {
        // The report stands without the history: the page draws none, and says why.
        row.notes.push_back(
            std::string("the run history beside the eval cannot be read, so no earlier runs are drawn: ") + e.what());
    }
    if (eval->a_a) {
        // Identical code on both sides: its ratio is the card's noise floor, nothing to credit or to hold prep to.
        row.a_a = eval->a_a;
        row.name += " (A/A " + eval->a_a->side + ")";
        row.prep = "A/A run";
        row.notes.push_back("an A/A run, the " + eval->a_a->side +
                            " timed against itself: " + std::to_string(eval->a_a->workloads_called_apart) + " of " +
                            std::to_string(eval->a_a->workloads) + " workloads" +
                            (eval->a_a->run_called_apart ? " and the geometric mean" : "") +
                            " called identical code faster or slower; a change from 1 of at least +/-" +
                            percent(eval->a_a->resolves) + " reads apart at these settings");
        return out;
    }
    out.credit = hold_to_contract(row, *eval);
    return out;
}

OperatorSummary summarize_eval(const std::string& eval_path) { return read_operator(eval_path).summary; }

void render_summary_text(std::ostream& out, const std::vector<OperatorSummary>& rows, bool colour) {
    summary_table(rows).render_text(out, colour);
    render_notes(out, rows, "  ");
    out << '\n' << legend << '\n';
}

void render_summary_markdown(std::ostream& out, const std::vector<OperatorSummary>& rows) {
    summary_table(rows).render_markdown(out);
    out << '\n';
    render_notes(out, rows, "- ");
    out << '\n' << legend << '\n';
}

nlohmann::json summary_json(const std::vector<OperatorSummary>& rows) {
    const auto number = [](std::optional<double> value) { return value ? nlohmann::json(*value) : nlohmann::json(); };
    const auto side = [&](const Throughput& t) {
        return nlohmann::json{{"gflops", number(t.gflops)},
                              {"gbps", number(t.gbps)},
                              {"peak_dram_bandwidth_fraction", number(t.peak_dram_bandwidth_fraction)}};
    };
    const auto throughput = [&](const OperatorSummary& row) {
        if (!row.reference_throughput.declared() && !row.student_throughput.declared()) return nlohmann::json();
        return nlohmann::json{{"reference", side(row.reference_throughput)}, {"student", side(row.student_throughput)}};
    };
    nlohmann::json operators = nlohmann::json::array();
    for (const OperatorSummary& row : rows) {
        operators.push_back(
            {{"name", row.name},
             {"eval", row.eval_path},
             {"backend", row.backend.empty() ? nlohmann::json() : nlohmann::json(row.backend)},
             {"ran", row.ran},
             {"skipped", row.skipped ? nlohmann::json(*row.skipped) : nlohmann::json()},
             {"workloads", row.workloads},
             {"reference_ms", number(row.reference_ms)},
             {"student_ms", number(row.student_ms)},
             {"throughput", throughput(row)},
             {"raw_ratio", number(row.raw_ratio)},
             {"ratio_ci",
              row.ratio_ci ? nlohmann::json::array({row.ratio_ci->low, row.ratio_ci->high}) : nlohmann::json()},
             {"verdict", row.verdict ? nlohmann::json(*row.verdict) : nlohmann::json()},
             {"precision_reached", row.precision_reached ? nlohmann::json(*row.precision_reached) : nlohmann::json()},
             {"quick", row.quick},
             {"credited_ratio", number(row.credited_ratio)},
             {"a_a", row.a_a ? nlohmann::json{{"side", row.a_a->side},
                                              {"n_workloads", row.a_a->workloads},
                                              {"workloads_called_apart", row.a_a->workloads_called_apart},
                                              {"run_called_apart", row.a_a->run_called_apart},
                                              {"resolves", row.a_a->resolves}}
                             : nlohmann::json()},
             {"noise_floor", number(noise_floor_for(row, rows))},
             {"prep", row.prep},
             {"correctness", row.correctness},
             {"notes", row.notes}});
    }
    return {{"operators", std::move(operators)}};
}

}  // namespace forge
