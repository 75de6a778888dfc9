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
std::string card_name(const EvalReport& eval) {
    if (eval.operator_name) return *eval.operator_name;
    const fs::path file(eval.path);
    const std::string name = file.filename().string();
    if (name == "eval.json") return file.parent_path().filename().string();
    return name.substr(0, name.size() - std::string(".eval.json").size());
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

// What the comparison reads of one run of a card, or why it cannot read it.
struct RunReading {
    std::optional<stats::ComparedRun> run;
    std::string missing;  // when `run` is absent
};

RunReading read_run(const EvalReport& eval, std::string_view side) {
    const auto without = [&](std::string_view why, const std::string& detail = {}) {
        std::string message(side);
        message += ": ";
        message += why;
        message += detail;
        return RunReading{.run = std::nullopt, .missing = message};
    };
    if (eval.skipped) return without("the bench was skipped: ", *eval.skipped);
    if (eval.failed()) return without("the bench failed: ", eval.failure());
    // The interval from the run's rounds alone: performance.ratio_ci may hold
    // the spread between its history's runs already, which the comparison adds
    // once, for both runs.
    const std::optional<RatioCi> within =
        eval.between_runs && eval.between_runs->within_run_ci ? eval.between_runs->within_run_ci : eval.ratio_ci;
    if (!eval.ratio || !within) return without("no ratio interval (an eval.json from before paired rounds)");
    if (!(*eval.ratio > 0.0 && within->low > 0.0 && within->high >= within->low)) {
        return without("its ratio interval is not positive; rerun the bench");
    }
    stats::ComparedRun run{.within_run = {.ratio = *eval.ratio, .low = within->low, .high = within->high},
                           .between_runs_log_sd = std::nullopt};
    if (eval.between_runs) run.between_runs_log_sd = eval.between_runs->log_sd;
    return {.run = run, .missing = {}};
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
        const RunReading old_reading = read_run(*before.at(name), "OLD");
        const RunReading new_reading = read_run(*eval, "NEW");
        if (!old_reading.run || !new_reading.run) {
            card.status = CardStatus::no_verdict;
            card.note = old_reading.run ? new_reading.missing : old_reading.missing;
            if (!old_reading.run && !new_reading.run) card.note += "; " + new_reading.missing;
            continue;
        }
        card.change = stats::ratio_change(*old_reading.run, *new_reading.run);
    }
    Comparison comparison{.cards = {}, .threshold = threshold};
    for (auto& [name, card] : cards) comparison.cards.push_back(std::move(card));
    return comparison;
}

}  // namespace forge
