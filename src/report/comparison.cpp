#include "forge/report/comparison.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <system_error>
#include <utility>

namespace forge {

namespace {

namespace fs = std::filesystem;

bool names_an_eval(const fs::path& file) {
    const std::string name = file.filename().string();
    return name == "eval.json" || (name.size() > 10 && name.ends_with(".eval.json"));
}

// "layernorm_bwd" of ".../layernorm_bwd.eval.json", the directory's name of ".../layernorm_bwd/eval.json".
std::string operator_of(const EvalReport& eval) {
    if (eval.operator_name) return *eval.operator_name;
    const fs::path file(eval.path);
    const std::string name = file.filename().string();
    if (name == "eval.json") return file.parent_path().filename().string();
    return name.substr(0, name.size() - std::string(".eval.json").size());
}

// The operator, and for an A/A run (NOISE_FLOOR's, beside the card's eval.json in
// a build tree) the side: compared with the same side's A/A run, never the card.
std::string card_name(const EvalReport& eval) {
    std::string name = operator_of(eval);
    if (eval.a_a) name.append(" (A/A ").append(eval.a_a->side).append(")");
    return name;
}

std::map<std::string, const EvalReport*> by_card(const std::vector<EvalReport>& run) {
    std::map<std::string, const EvalReport*> cards;
    for (const EvalReport& eval : run) {
        const auto [it, added] = cards.emplace(card_name(eval), &eval);
        if (!added) {
            std::string message = it->second->path;
            message += " and ";
            message += eval.path;
            message += " are both evals of '";
            message += it->first;
            message += "' in one run: give each run's evals alone (a directory holding one copy of each card)";
            throw std::runtime_error(message);
        }
    }
    return cards;
}

// What the comparison reads of one run of a card or of a workload, or why it cannot read it.
struct RunReading {
    std::optional<stats::ComparedRun> run;
    std::string missing;  // when `run` is absent
};

RunReading run_without(std::string_view side, std::string_view why, std::string_view detail = {}) {
    std::string message(side);
    message += ": ";
    message += why;
    message += detail;
    return RunReading{.run = std::nullopt, .missing = message};
}

// A ratio and its intervals, as a card's run or a workload carries them.
RunReading read_ratio(std::optional<double> ratio, const std::optional<RatioCi>& ratio_ci,
                      const std::optional<BetweenRuns>& between_runs, std::string_view side) {
    // The interval from the run's rounds alone: ratio_ci may hold the spread
    // between its history's runs already, which the comparison adds once, for
    // both runs.
    const std::optional<RatioCi> within =
        between_runs && between_runs->within_run_ci ? between_runs->within_run_ci : ratio_ci;
    if (!ratio || !within) return run_without(side, "no ratio interval (an eval.json from before paired rounds)");
    if (!(*ratio > 0.0 && within->low > 0.0 && within->high >= within->low)) {
        return run_without(side, "its ratio interval is not positive; rerun the bench");
    }
    stats::ComparedRun run{.within_run = {.ratio = *ratio, .low = within->low, .high = within->high},
                           .between_runs_log_sd = std::nullopt};
    if (between_runs) run.between_runs_log_sd = between_runs->log_sd;
    return {.run = run, .missing = {}};
}

// Whether the bench ran and measured; why not.
std::optional<RunReading> unmeasured(const EvalReport& eval, std::string_view side) {
    if (eval.skipped) return run_without(side, "the bench was skipped: ", *eval.skipped);
    if (eval.failed()) return run_without(side, "the bench failed: ", eval.failure());
    return std::nullopt;
}

RunReading read_run(const EvalReport& eval, std::string_view side) {
    if (std::optional<RunReading> without = unmeasured(eval, side)) return std::move(*without);
    return read_ratio(eval.ratio, eval.ratio_ci, eval.between_runs, side);
}

// The change between two readings, or why there is none (both sides' reasons
// where neither can be read): one rule for a card and for each workload.
struct Judged {
    std::optional<stats::RatioChange> change;
    std::string note;
};

Judged judge(const RunReading& before, const RunReading& after) {
    if (before.run && after.run) return {.change = stats::ratio_change(*before.run, *after.run), .note = {}};
    std::string note = before.run ? after.missing : before.missing;
    if (!before.run && !after.run) note += "; " + after.missing;
    return {.change = std::nullopt, .note = std::move(note)};
}

// Each workload of a card in both runs, matched by name: OLD's in its order,
// then NEW's alone.
std::vector<WorkloadComparison> compare_workloads(const EvalReport& old_eval, const EvalReport& new_eval) {
    std::vector<WorkloadComparison> out;
    const auto find = [](const EvalReport& eval, const std::string& name) -> const WorkloadReading* {
        const auto it = std::find_if(eval.workloads.begin(), eval.workloads.end(),
                                     [&](const WorkloadReading& w) { return w.name == name; });
        return it == eval.workloads.end() ? nullptr : &*it;
    };
    const auto listed = [&](const std::string& name) {
        return std::any_of(out.begin(), out.end(), [&](const WorkloadComparison& w) { return w.name == name; });
    };
    for (const WorkloadReading& before : old_eval.workloads) {
        if (listed(before.name)) continue;  // a name twice in one eval: its first
        WorkloadComparison workload{.name = before.name,
                                    .old_ratio = before.ratio,
                                    .new_ratio = std::nullopt,
                                    .status = CardStatus::removed,
                                    .change = std::nullopt,
                                    .note = {}};
        if (const WorkloadReading* after = find(new_eval, before.name)) {
            workload.new_ratio = after->ratio;
            Judged judged = judge(read_ratio(before.ratio, before.ratio_ci, before.between_runs, "OLD"),
                                  read_ratio(after->ratio, after->ratio_ci, after->between_runs, "NEW"));
            workload.status = judged.change ? CardStatus::compared : CardStatus::no_verdict;
            workload.change = judged.change;
            workload.note = std::move(judged.note);
        }
        out.push_back(std::move(workload));
    }
    for (const WorkloadReading& after : new_eval.workloads) {
        if (listed(after.name)) continue;
        out.push_back({.name = after.name,
                       .old_ratio = std::nullopt,
                       .new_ratio = after.ratio,
                       .status = CardStatus::added,
                       .change = std::nullopt,
                       .note = {}});
    }
    return out;
}

// "OLD host a, NEW host b" where both runs record the field and it differs.
void note_change(std::vector<std::string>& notes, std::string_view what, const std::optional<std::string>& before,
                 const std::optional<std::string>& after) {
    if (!before || !after || *before == *after) return;
    std::string note = "OLD ran on ";
    note += what;
    note += " '";
    note += *before;
    note += "', NEW on '";
    note += *after;
    note += "'";
    notes.push_back(std::move(note));
}

}  // namespace

std::vector<std::string> machine_changes(const EvalReport& old_eval, const EvalReport& new_eval) {
    std::vector<std::string> notes;
    note_change(notes, "host", old_eval.machine.host, new_eval.machine.host);
    note_change(notes, "device", old_eval.machine.device, new_eval.machine.device);
    if (old_eval.machine.device == new_eval.machine.device) {
        note_change(notes, "GPU", old_eval.machine.device_uuid, new_eval.machine.device_uuid);
    }
    if (!notes.empty()) {
        notes.emplace_back("each run's reference controls for its machine's speed, not for how each side's work "
                           "suits another machine: compare runs from one machine to judge a change of code");
    }
    for (const auto& [run, eval] : {std::pair{"OLD", &old_eval}, std::pair{"NEW", &new_eval}}) {
        if (!eval->busier_machine.value_or(false)) continue;
        std::string note = run;
        note += " read its machine busier than the bench's earlier runs there (between_runs.machine.busier): its "
                "interval is wider, and a change may be the load's";
        notes.push_back(std::move(note));
    }
    for (const auto& [run, eval] : {std::pair{"OLD", &old_eval}, std::pair{"NEW", &new_eval}}) {
        if (!eval->machine.neighbour_cpus) continue;
        std::string note = run;
        note += " ran beside other processes (device.other_processes): a change may be the neighbour's, which "
                "slows one side more than the other";
        notes.push_back(std::move(note));
    }
    return notes;
}

std::vector<fs::path> eval_files(const fs::path& path) {
    std::error_code error;
    if (fs::is_regular_file(path, error)) return {path};
    if (!fs::is_directory(path, error)) {
        throw std::runtime_error(path.string() + ": no such eval.json file or directory");
    }
    std::vector<fs::path> files;
    for (auto it = fs::recursive_directory_iterator(path, fs::directory_options::skip_permission_denied, error);
         !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        if (it->is_regular_file(error) && names_an_eval(it->path())) files.push_back(it->path());
    }
    if (error) throw std::runtime_error(path.string() + ": cannot list the directory: " + error.message());
    if (files.empty()) {
        throw std::runtime_error(path.string() +
                                 ": holds no eval.json or *.eval.json file; give a bench's eval.json or a directory "
                                 "holding them (a build tree after ctest)");
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<EvalReport> load_run(const fs::path& path) {
    std::vector<EvalReport> run;
    for (const fs::path& file : eval_files(path)) {
        std::optional<EvalReport> eval = load_eval(file);
        if (!eval) throw EvalError(file.string() + ": no such eval.json", file.string(), std::nullopt, "");
        run.push_back(std::move(*eval));
    }
    return run;
}

std::size_t Comparison::regressions() const noexcept {
    return static_cast<std::size_t>(std::count_if(cards.begin(), cards.end(), [&](const CardComparison& card) {
        return card.change && card.change->regressed_below(threshold);
    }));
}

bool Comparison::any_compared() const noexcept {
    return std::any_of(cards.begin(), cards.end(), [](const CardComparison& card) { return card.change.has_value(); });
}

Comparison compare_runs(const std::vector<EvalReport>& old_run, const std::vector<EvalReport>& new_run,
                        double threshold) {
    const std::map<std::string, const EvalReport*> before = by_card(old_run);
    const std::map<std::string, const EvalReport*> after = by_card(new_run);
    std::map<std::string, CardComparison> cards;
    for (const auto& [name, eval] : before) {
        CardComparison& card = cards[name];
        card.name = name;
        card.old_eval = eval->path;
        card.old_ratio = eval->ratio;
        card.status = CardStatus::removed;
    }
    for (const auto& [name, eval] : after) {
        CardComparison& card = cards[name];
        card.name = name;
        card.new_eval = eval->path;
        card.new_ratio = eval->ratio;
        card.status = card.old_eval.empty() ? CardStatus::added : CardStatus::compared;
        if (card.status == CardStatus::added) continue;
        card.machine_notes = machine_changes(*before.at(name), *eval);
        const EvalReport& old_eval = *before.at(name);
        Judged judged = judge(read_run(old_eval, "OLD"), read_run(*eval, "NEW"));
        card.change = judged.change;
        card.note = std::move(judged.note);
        if (!card.change) card.status = CardStatus::no_verdict;
        // A skipped or failed run measured no workload.
        if (!unmeasured(old_eval, "OLD") && !unmeasured(*eval, "NEW")) {
            card.workloads = compare_workloads(old_eval, *eval);
        }
    }
    Comparison comparison{.cards = {}, .threshold = threshold};
    for (auto& [name, card] : cards) comparison.cards.push_back(std::move(card));
    return comparison;
}

}  // namespace forge
