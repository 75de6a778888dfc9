// Reading the JSON files the checks read (eval.json, kernel table files):
// lenient exactly where the Python oracle is, strict where the file is
// structurally wrong, every error an EvalError naming the file, the line and
// the key path. Internal to src/eval.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/eval/eval.hpp"
#include "forge/eval/eval_keys.hpp"
#include "forge/eval/python_value.hpp"
#include "json_text.hpp"

namespace forge::eval_detail {

using eval_text::KeyPath;
using nlohmann::json;

// "file:line:col: key: what"
[[nodiscard]] std::string compose(const std::string& file, const std::optional<SourceLocation>& location,
                                  const std::string& key, const std::string& what);

// "a string (\"fast\")", "an array", ...: what the file holds where it should not.
[[nodiscard]] std::string describe(const json& value);

// The file's text; nullopt when it does not exist. EvalError when it is a
// directory or cannot be read; `expected` says what it should be ("the bench's eval.json").
[[nodiscard]] std::optional<std::string> read_json_file(const std::filesystem::path& file, std::string_view expected);

// Parses `text` (nesting bounded by eval_max_depth); EvalError with the line and
// column on a syntax error, `hint` saying what to do about it.
[[nodiscard]] json parse_json_file(std::string_view text, const std::string& file, std::string_view hint);

class Reader {
public:
    Reader(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

    [[noreturn]] void fail(const KeyPath& at, const std::string& what) const {
        const auto location = eval_text::locate(text_, at);
        const std::string key = at.str();
        throw EvalError(compose(file_, location, key, what), file_, location, key);
    }

    // The member `key` of `object`, or nullptr when absent or null: the
    // oracle treats both as "not reported".
    static const json* member(const json& object, std::string_view key) {
        const auto it = object.find(key);
        return it == object.end() || it->is_null() ? nullptr : &*it;
    }

    // `root.<object>.<key>` where it is a string; leniently absent otherwise
    // (what the machine was is for people and comparisons, never a check's input).
    static std::optional<std::string> text_in(const json& root, std::string_view object, std::string_view key) {
        const json* outer = member(root, object);
        const json* value = outer && outer->is_object() ? member(*outer, key) : nullptr;
        if (!value || !value->is_string()) return std::nullopt;
        return value->get<std::string>();
    }

    // "device.other_processes.cpus" where its "neighbour" is true; leniently absent, as text_in.
    static std::optional<double> neighbour_cpus(const json& root) {
        const json* device = member(root, eval_key::device);
        const json* others = device && device->is_object() ? member(*device, eval_key::other_processes) : nullptr;
        if (!others || !others->is_object()) return std::nullopt;
        const json* neighbour = member(*others, eval_key::neighbour);
        const json* cpus = member(*others, eval_key::cpus);
        if (!neighbour || *neighbour != true || !cpus || !cpus->is_number()) return std::nullopt;
        return cpus->get<double>();
    }

    const json* object_member(const json& object, const KeyPath& at, std::string_view key,
                              std::string_view expected) const {
        const json* value = member(object, key);
        if (value && !value->is_object())
            fail(at / key, "is " + describe(*value) + ", expected " + std::string(expected));
        return value;
    }

    std::optional<double> milliseconds(const json& object, const KeyPath& at, std::string_view key) const {
        const json* value = member(object, key);
        if (!value) return std::nullopt;
        if (!value->is_number())
            fail(at / key, "is " + describe(*value) + ", expected a number of milliseconds or null");
        return value->get<double>();
    }

    EvalReport read(json root) const {
        const KeyPath top;
        if (!root.is_object()) {
            fail(top, "the file holds " + describe(root) +
                          ", expected the bench's report object {\"schema_version\": 1, \"performance\": {...}, ...}");
        }
        // An object none of whose keys an eval.json writes is another file: the
        // run history beside it, say, would read as a bench that measured nothing.
        if (!holds_eval_keys(root)) {
            fail(top, std::string("holds none of eval.json's keys (schema_version, operator, correctness, "
                                  "performance, ...)") +
                          (root.contains("runs") ? ": it is a bench's run history (<operator>.runs.json), which "
                                                   "sits beside its eval.json"
                                                 : "") +
                          "; pass the eval.json the bench wrote");
        }
        EvalReport report;
        report.path = file_;
        if (const json* version = member(root, eval_key::schema_version);
            version && !(version->is_number() && version->get<double>() == static_cast<double>(eval_schema_version))) {
            fail(top / eval_key::schema_version,
                 "is " + describe(*version) + "; this forge reads eval.json schema version " +
                     std::to_string(eval_schema_version) + " (rebuild the bench with it)");
        }
        if (const json* name = member(root, eval_key::operator_name); name && name->is_string())
            report.operator_name = name->get<std::string>();
        if (const json* backend = member(root, eval_key::backend); backend && backend->is_string())
            report.backend = backend->get<std::string>();
        if (const json* contract = member(root, eval_key::contract); contract && contract->is_string())
            report.contract = contract->get<std::string>();
        if (const json* digest = member(root, eval_key::contract_digest); digest && digest->is_string())
            report.contract_digest = digest->get<std::string>();
        if (const json* skipped = object_member(root, top, eval_key::skipped, "an object {\"reason\": \"...\"}")) {
            const json* reason = member(*skipped, eval_key::reason);
            report.skipped = reason ? python_str(*reason) : "no reason given";
        }
        if (const json* correctness =
                object_member(root, top, eval_key::correctness, "an object {\"passed\": true|false, ...}")) {
            if (const json* passed = member(*correctness, eval_key::passed)) {
                if (!passed->is_boolean())
                    fail(top / eval_key::correctness / eval_key::passed,
                         "is " + describe(*passed) + ", expected true or false");
                report.correctness_passed = passed->get<bool>();
            }
            report.problems = messages(*correctness, top / eval_key::correctness, eval_key::problems);
        }
        report.notices = messages(root, top, eval_key::notices);
        report.machine.host = text_in(root, eval_key::launch, eval_key::host);
        report.machine.device = text_in(root, eval_key::device, eval_key::name);
        report.machine.device_uuid = text_in(root, eval_key::device, eval_key::uuid);
        report.machine.neighbour_cpus = neighbour_cpus(root);
        if (const json* build =
                object_member(root, top, eval_key::build, "an object {\"optimized\": true|false, ...}")) {
            report.build_optimized = flag(*build, top / eval_key::build, eval_key::optimized);
            if (const json* type = member(*build, eval_key::build_type)) report.build_type = python_str(*type);
            report.reference_options = side_options(*build, top / eval_key::build, eval_key::reference_options);
            report.student_options = side_options(*build, top / eval_key::build, eval_key::student_options);
        }
        json* performance = root.contains(eval_key::performance) ? &root[eval_key::performance] : nullptr;
        if (!performance || performance->is_null()) return report;
        const KeyPath perf = top / eval_key::performance;
        if (!performance->is_object()) fail(perf, "is " + describe(*performance) + ", expected an object");
        if (const auto prep = performance->find(eval_key::prep); prep != performance->end())
            report.prep = std::move(*prep);
        report.reference_ms = milliseconds(*performance, perf, eval_key::reference_ms);
        report.student_ms = milliseconds(*performance, perf, eval_key::student_ms);
        if (const json* ratio = member(*performance, eval_key::ratio)) {
            if (!ratio->is_number())
                fail(perf / eval_key::ratio, "is " + describe(*ratio) + ", expected a number or null");
            report.ratio = ratio->get<double>();
        }
        report.reference_throughput = throughput(*performance, perf, eval_key::reference);
        report.student_throughput = throughput(*performance, perf, eval_key::student);
        report.measured = true;
        report.ratio_ci = interval(*performance, perf, eval_key::ratio_ci);
        report.verdict = verdict(*performance, perf);
        report.precision_reached = flag(*performance, perf, eval_key::precision_reached);
        if (const json* stopping = object_member(*performance, perf, eval_key::stopping, "an object or null")) {
            const json* preset = member(*stopping, eval_key::preset);
            report.quick = preset != nullptr && preset->is_string() && *preset == "quick";
        }
        if (const json* between = object_member(*performance, perf, eval_key::between_runs, "an object or null")) {
            report.between_runs = between_runs(*between, perf / eval_key::between_runs);
            if (const json* machine =
                    object_member(*between, perf / eval_key::between_runs, eval_key::machine, "an object")) {
                report.busier_machine =
                    flag(*machine, perf / eval_key::between_runs / eval_key::machine, eval_key::busier);
            }
        }
        if (const json* a_a = object_member(*performance, perf, eval_key::a_a, "an object or null")) {
            report.a_a = noise_floor(*a_a, perf / eval_key::a_a);
        }
        if (const json* workloads = member(*performance, eval_key::workloads)) {
            if (!workloads->is_array())
                fail(perf / eval_key::workloads,
                     "is " + describe(*workloads) + ", expected an array of workload objects");
            report.workloads.reserve(workloads->size());
            for (std::size_t i = 0; i < workloads->size(); ++i) {
                report.workloads.push_back(workload((*workloads)[i], perf / eval_key::workloads / i, i));
            }
        }
        return report;
    }

    // A table file as `forge table import` writes it: {"kernels": [rows],
    // "profiler": {"total_ns", "calls"} | null}, read as one side's readings.
    SideReading table_file(const json& root) const {
        const KeyPath top;
        if (!root.is_object()) {
            fail(top, "the file holds " + describe(root) +
                          ", expected a kernel table {\"kernels\": [rows], \"profiler\": {...}} (`forge table "
                          "import` writes one)");
        }
        SideReading out;
        out.kernels = table(root, top, eval_key::kernels);
        if (!out.kernels)
            fail(top / eval_key::kernels,
                 "is missing, expected an array of kernel rows (`forge table import` writes one)");
        out.profiler = digest(root, top, eval_key::profiler);
        return out;
    }

private:
    WorkloadReading workload(const json& value, const KeyPath& at, std::size_t index) const {
        if (!value.is_object())
            fail(at, "is " + describe(value) + ", expected a workload object {\"name\", \"reference_ms\", ...}");
        WorkloadReading out;
        // str(workload.get("name", index)), as the oracle tags prep blocks.
        const auto name = value.find(eval_key::name);
        out.name = name == value.end() ? std::to_string(index) : python_str(*name);
        out.reference.ms = milliseconds(value, at, eval_key::reference_ms);
        out.student.ms = milliseconds(value, at, eval_key::student_ms);
        if (const json* ratio = member(value, eval_key::ratio)) {
            if (!ratio->is_number())
                fail(at / eval_key::ratio, "is " + describe(*ratio) + ", expected a number or null");
            out.ratio = ratio->get<double>();
        }
        out.reference.throughput = throughput(value, at, eval_key::reference);
        out.student.throughput = throughput(value, at, eval_key::student);
        out.ratio_ci = interval(value, at, eval_key::ratio_ci);
        out.verdict = verdict(value, at);
        if (const json* between = object_member(value, at, eval_key::between_runs, "an object or null")) {
            out.between_runs = between_runs(*between, at / eval_key::between_runs);
        }
        if (const auto rounds = value.find(eval_key::rounds); rounds != value.end()) out.rounds = *rounds;
        if (const json* kernels =
                object_member(value, at, eval_key::kernels, "an object {\"reference\": [rows], \"student\": [rows]}")) {
            out.reference.kernels = table(*kernels, at / eval_key::kernels, eval_key::reference);
            out.student.kernels = table(*kernels, at / eval_key::kernels, eval_key::student);
        }
        if (const json* profiler =
                object_member(value, at, eval_key::profiler, "an object {\"reference\": {...}, \"student\": {...}}")) {
            out.reference.profiler = digest(*profiler, at / eval_key::profiler, eval_key::reference);
            out.student.profiler = digest(*profiler, at / eval_key::profiler, eval_key::student);
        }
        if (const json* changed = object_member(value, at, eval_key::kernel_set_changed,
                                                "an object {\"reference\": true|false|null, \"student\": ...}")) {
            out.reference.kernel_set_changed = flag(*changed, at / eval_key::kernel_set_changed, eval_key::reference);
            out.student.kernel_set_changed = flag(*changed, at / eval_key::kernel_set_changed, eval_key::student);
        }
        return out;
    }

    // "throughput": {"<side>": {"gflops", "gbps", "peak_dram_bandwidth_fraction"}}; each
    // absent or null: none (files before throughput have no such key).
    Throughput throughput(const json& object, const KeyPath& at, std::string_view side) const {
        Throughput out;
        const json* sides =
            object_member(object, at, eval_key::throughput, "an object {\"reference\": {...}, \"student\": {...}}");
        if (!sides) return out;
        const KeyPath here = at / eval_key::throughput;
        const json* figures =
            object_member(*sides, here, side, "an object {\"gflops\", \"gbps\", \"peak_dram_bandwidth_fraction\"}");
        if (!figures) return out;
        out.gflops = number(*figures, here / side, eval_key::gflops);
        out.gbps = number(*figures, here / side, eval_key::gbps);
        out.peak_dram_bandwidth_fraction = number(*figures, here / side, eval_key::peak_dram_bandwidth_fraction);
        return out;
    }

    std::optional<double> number(const json& object, const KeyPath& at, std::string_view key) const {
        const json* value = member(object, key);
        if (!value) return std::nullopt;
        if (!value->is_number()) fail(at / key, "is " + describe(*value) + ", expected a number or null");
        return value->get<double>();
    }

    // An interval ("ratio_ci", "within_run_ci"): [low, high], two numbers with
    // low <= high; absent or null: none.
    std::optional<RatioCi> interval(const json& object, const KeyPath& at, std::string_view key) const {
        const json* value = member(object, key);
        if (!value) return std::nullopt;
        const auto number = [](const json& x) { return x.is_number(); };
        if (!value->is_array() || value->size() != 2 || !std::all_of(value->begin(), value->end(), number))
            fail(at / key, "is " + describe(*value) + ", expected [low, high]: two numbers");
        RatioCi out{(*value)[0].get<double>(), (*value)[1].get<double>()};
        if (!(out.low <= out.high)) fail(at / key, "is " + value->dump() + ": its low end is above its high end");
        return out;
    }

    // The run's or a workload's "between_runs" object.
    BetweenRuns between_runs(const json& object, const KeyPath& at) const {
        BetweenRuns out;
        if (const json* runs = member(object, eval_key::runs)) {
            if (!runs->is_number_integer() || runs->get<std::int64_t>() < 1)
                fail(at / eval_key::runs, "is " + describe(*runs) + ", expected a count of runs (at least 1)");
            out.runs = runs->get<std::int64_t>();
        }
        out.log_sd = number(object, at, eval_key::log_sd);
        out.within_run_ci = interval(object, at, eval_key::within_run_ci);
        out.reaches_earlier_runs = flag(object, at, eval_key::reaches_earlier_runs);
        return out;
    }

    // "performance.a_a": every key present, of its type.
    NoiseFloorReading noise_floor(const json& object, const KeyPath& at) const {
        const auto is = [](const json* value) {
            std::string out = "is ";
            out += value ? describe(*value) : "missing";
            return out;
        };
        NoiseFloorReading out;
        const json* side = member(object, eval_key::side);
        if (!side || !(*side == eval_key::reference || *side == eval_key::student))
            fail(at / eval_key::side, is(side) + ", expected \"reference\" or \"student\"");
        out.side = side->get<std::string>();
        const auto count = [&](std::string_view key) {
            const json* value = member(object, key);
            if (!value || !value->is_number_integer() || value->get<std::int64_t>() < 0)
                fail(at / key, is(value) + ", expected a count");
            return value->get<std::int64_t>();
        };
        out.workloads = count(eval_key::n_workloads);
        out.workloads_called_apart = count(eval_key::workloads_called_apart);
        const std::optional<bool> run_apart = flag(object, at, eval_key::run_called_apart);
        if (!run_apart) fail(at / eval_key::run_called_apart, "is missing, expected true or false");
        const std::optional<double> resolves = number(object, at, eval_key::resolves);
        if (!resolves || !(*resolves >= 0.0))
            fail(at / eval_key::resolves, "is missing or negative, expected a fraction >= 0");
        out.run_called_apart = *run_apart;
        out.resolves = *resolves;
        return out;
    }

    std::optional<std::string> verdict(const json& object, const KeyPath& at) const {
        const json* value = member(object, eval_key::verdict);
        if (!value) return std::nullopt;
        for (std::string_view word : {verdict_faster, verdict_slower, verdict_indistinguishable}) {
            if (value->is_string() && value->get<std::string>() == word) return std::string(word);
        }
        fail(at / eval_key::verdict, "is " + describe(*value) + ", expected \"" + std::string(verdict_faster) +
                                         "\", \"" + std::string(verdict_slower) + "\" or \"" +
                                         std::string(verdict_indistinguishable) + "\"");
    }

    std::optional<bool> flag(const json& object, const KeyPath& at, std::string_view key) const {
        const json* value = member(object, key);
        if (!value) return std::nullopt;
        if (!value->is_boolean()) fail(at / key, "is " + describe(*value) + ", expected true, false or null");
        return value->get<bool>();
    }

    // {"<language>": ["<option>", ...], ...}: a side's compile options.
    std::optional<OptionsByLanguage> side_options(const json& build, const KeyPath& at, std::string_view key) const {
        const json* value = object_member(build, at, key, "an object {\"<language>\": [\"<option>\", ...]}");
        if (!value) return std::nullopt;
        OptionsByLanguage out;
        for (const auto& [language, options] : value->items()) {
            if (!options.is_array()) {
                fail(at / key / language, "is " + describe(options) + ", expected an array of options");
            }
            std::vector<std::string>& listed = out[language];  // a language with none is kept too
            for (const json& option : options) listed.push_back(python_str(option));
        }
        return out;
    }

    // An array of messages for people; an entry that is not a string is kept as its str().
    std::vector<std::string> messages(const json& object, const KeyPath& at, std::string_view key) const {
        std::vector<std::string> out;
        const json* value = member(object, key);
        if (!value) return out;
        if (!value->is_array()) fail(at / key, "is " + describe(*value) + ", expected an array of messages");
        out.reserve(value->size());
        for (const json& entry : *value) out.push_back(python_str(entry));
        return out;
    }

    std::optional<KernelTable> table(const json& kernels, const KeyPath& at, std::string_view side) const {
        const json* rows = member(kernels, side);
        if (!rows) return std::nullopt;
        const KeyPath here = at / side;
        if (!rows->is_array())
            fail(here, "is " + describe(*rows) + ", expected an array of kernel rows (or null: no table)");
        KernelTable out;
        out.kernels.reserve(rows->size());
        for (std::size_t i = 0; i < rows->size(); ++i) out.kernels.push_back(row((*rows)[i], here / i));
        return out;
    }

    KernelRow row(const json& value, const KeyPath& at) const {
        if (!value.is_object()) {
            fail(at,
                 "is " + describe(value) + ", expected a kernel row {\"name\", \"launches\", \"time_ns\", \"pct\"}");
        }
        KernelRow out;
        // The oracle reads str(row.get("name", "")) and float(row.get("time_ns") or 0.0),
        // a time that is not a number counting 0.
        if (const auto name = value.find(eval_key::name); name != value.end()) out.name = python_str(*name);
        const auto time = value.find(eval_key::time_ns);
        out.time_ns = time != value.end() && python_truthy(*time) ? python_float(*time).value_or(0.0) : 0.0;
        const auto launches = value.find(eval_key::launches);
        out.launches = launches == value.end() ? 0 : python_int(*launches).value_or(0);
        const auto pct = value.find(eval_key::pct);
        out.pct = pct == value.end() ? 0.0 : python_float(*pct).value_or(0.0);
        return out;
    }

    // The oracle's coverage is None for a digest that is empty or not an
    // object, whose total_ns is not a number, or whose calls is not a positive
    // number: such digests keep NaN as total_ns or 0 as calls, which the
    // coverage reads as "no figure" the same way.
    std::optional<ProfilerDigest> digest(const json& profiler, const KeyPath& at, std::string_view side) const {
        const json* value = member(profiler, side);
        if (!value || !value->is_object() || value->empty()) return std::nullopt;
        ProfilerDigest out;
        const json* total = member(*value, eval_key::total_ns);
        out.total_ns = total ? python_float(*total).value_or(std::numeric_limits<double>::quiet_NaN())
                             : std::numeric_limits<double>::quiet_NaN();
        const json* calls = member(*value, eval_key::calls);
        if (!calls) return out;  // missing calls means one call
        const auto n = python_float(*calls);
        if (!n || std::isnan(*n) || *n <= 0) {
            out.calls = 0;
        } else if (*n == std::floor(*n) && *n < 0x1p63) {
            out.calls = static_cast<std::int64_t>(*n);
        } else {
            fail(at / side / eval_key::calls, "is " + describe(*calls) + ", expected a whole number of profiled calls");
        }
        return out;
    }

    std::string_view text_;
    std::string file_;
};


}  // namespace forge::eval_detail
