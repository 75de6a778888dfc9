// The bench executable's command line (cmake/README.md, "Tests"): what FORGE_BENCH_MAIN runs.
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/check.hpp"
#include "forge/eval/eval.hpp"
#include "forge/eval/eval_keys.hpp"
#include "forge/exit_code.hpp"
#include "forge/io/file.hpp"
#include "forge/report/findings_view.hpp"
#include "against_itself.hpp"
#include "definition.hpp"
#include "launch.hpp"
#include "runtime/cuda/gpu_choice.hpp"
#include "runtime/host/vector_extensions.hpp"
#include "side_options.hpp"
#include "side_targets.hpp"

namespace forge::bench {

namespace {

constexpr std::string_view usage_text =
    "usage: BENCH --contract <card>/window.toml --eval <file>/eval.json --operator <name> [--quick]\n"
    "             [--precision FRACTION] [--time-cap SECONDS] [--a-a reference|student]\n"
    "  --contract  the operator's window.toml (or its card directory)\n"
    "  --eval      where to write eval.json (atomically; its directory is made); beside it,\n"
    "              <operator>.runs.json keeps this bench's last runs, whose spread each\n"
    "              interval includes\n"
    "  --operator  the operator's name, as eval.json reports it\n"
    "  --quick     fewer rounds and a shorter time cap (tests)\n"
    "  --precision stop when each workload's 95% ratio interval is within +/- this\n"
    "              fraction of its ratio (default 0.01, or the bench's Bench::precision)\n"
    "  --time-cap  each workload's rounds stop after this many seconds of wall time if\n"
    "              the precision is not reached first (default 4; --quick: 0.3)\n"
    "  --a-a       time this side against itself (its call on both sides): the card's\n"
    "              noise floor, eval.json performance.a_a; keep its --eval apart\n"
    "exit: 0 ran and outputs matched; 1 correctness failed or a violation was caught;\n"
    "      2 usage or contract error; 77 the backend cannot run here (eval.json says why)\n";

struct Arguments {
    std::string contract;
    std::string eval;
    std::string operator_name;
    bool quick = false;
    std::optional<double> precision;
    std::optional<double> time_cap_s;
    std::optional<Side> against_itself;
};

// The whole of `text` as a number; nullopt where it is not one.
std::optional<double> parse_number(std::string_view text) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(std::string(text), &used);
    } catch (const std::exception&) {
        return std::nullopt;
    }
    if (used != text.size()) return std::nullopt;
    return value;
}

// A fraction in (0, 1), or std::invalid_argument naming the flag.
double parse_precision(std::string_view text) {
    const std::optional<double> value = parse_number(text);
    if (!value || !(*value > 0.0 && *value < 1.0)) {
        throw std::invalid_argument("--precision takes a fraction between 0 and 1 (0.01 for +/-1%), not '" +
                                    std::string(text) + "'");
    }
    return *value;
}

// Seconds, more than 0 and at most an hour, or std::invalid_argument naming the flag.
double parse_time_cap(std::string_view text) {
    const std::optional<double> value = parse_number(text);
    if (!value || !(*value > 0.0 && *value <= 3600.0)) {
        throw std::invalid_argument("--time-cap takes seconds, more than 0 and at most 3600 (4 is the default), not '" +
                                    std::string(text) + "'");
    }
    return *value;
}

// Throws std::invalid_argument naming the problem.
std::optional<Arguments> parse(int argc, char** argv) {
    Arguments args;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--help" || arg == "-h") return std::nullopt;
        if (arg == "--quick") {
            args.quick = true;
            continue;
        }
        if (arg == "--precision") {
            if (i + 1 >= argc) throw std::invalid_argument("--precision needs a value");
            args.precision = parse_precision(argv[++i]);
            continue;
        }
        if (arg == "--a-a") {
            if (i + 1 >= argc) throw std::invalid_argument("--a-a needs a side: reference or student");
            const std::string_view side = argv[++i];
            if (side != "reference" && side != "student") {
                throw std::invalid_argument("--a-a takes the side to time against itself, reference or student, not '" +
                                            std::string(side) + "'");
            }
            args.against_itself = side == "reference" ? Side::reference : Side::student;
            continue;
        }
        if (arg == "--time-cap") {
            if (i + 1 >= argc) throw std::invalid_argument("--time-cap needs a value");
            args.time_cap_s = parse_time_cap(argv[++i]);
            continue;
        }
        std::string* value = arg == "--contract" ? &args.contract
                             : arg == "--eval"   ? &args.eval
                             : arg == "--operator" ? &args.operator_name
                                                   : nullptr;
        if (value == nullptr) throw std::invalid_argument("unknown argument '" + std::string(arg) + "'");
        if (i + 1 >= argc) throw std::invalid_argument(std::string(arg) + " needs a value");
        *value = argv[++i];
    }
    if (args.contract.empty()) throw std::invalid_argument("--contract is required");
    if (args.eval.empty()) throw std::invalid_argument("--eval is required");
    if (args.operator_name.empty()) throw std::invalid_argument("--operator is required");
    return args;
}

// The running executable's bytes, digested (FNV-1a, 64 bits): runs share a
// history only with runs of the same build of the bench. Empty where the
// executable cannot be read (no /proc): each run then stands alone.
std::string executable_digest() {
    std::error_code error;
    const std::filesystem::path executable = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return {};
    std::string bytes;
    try {
        bytes = read_file(executable);
    } catch (const FileError&) {
        return {};
    }
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (const char byte : bytes) hash = (hash ^ static_cast<unsigned char>(byte)) * 0x100000001B3ULL;
    std::ostringstream text;
    text << std::hex << std::setw(16) << std::setfill('0') << hash;
    return text.str();
}

// Beside eval.json, one file per operator: the bench's earlier runs on this machine.
std::filesystem::path history_path(const Arguments& args) {
    const std::filesystem::path name = args.operator_name + ".runs.json";
    if (name.has_parent_path()) return {};  // an operator name that is a path keeps no history
    return std::filesystem::path(args.eval).parent_path() / name;
}

// Why the file --eval names may not be replaced, if it may not: the bench replaces only an
// eval.json (one a bench wrote) or an empty file, so swapped arguments (`--eval window.toml`)
// or a typo naming a source file refuse instead of deleting what the user wrote.
std::optional<std::string> not_replaceable(const std::filesystem::path& eval) {
    std::error_code error;
    const std::filesystem::file_status status = std::filesystem::status(eval, error);
    if (!std::filesystem::exists(status)) return std::nullopt;
    if (!std::filesystem::is_regular_file(status)) {
        return "is a directory or another non-file; name the eval.json file the bench writes (such as " +
               (eval / "eval.json").string() + ")";
    }
    std::string text;
    try {
        text = read_file(eval);
    } catch (const FileError& e) {
        return std::string("cannot be read (") + e.what() + "), so it is not replaced";
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return std::nullopt;
    const nlohmann::json existing = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (holds_eval_keys(existing)) return std::nullopt;
    return "exists and is not an eval.json a bench wrote; the bench does not overwrite it (is --eval the "
           "argument you meant? name a new path, or remove the file yourself)";
}

void print_findings(const ContractCheck& check) {
    for (const Finding& finding : check.findings) std::cerr << format_finding(finding, check.path) << "\n";
}

// The options among the build's C++ and C flags and a side's own that choose its instructions.
std::vector<std::string> side_target(const BuildInfo& build, std::string_view side_options) {
    return target_options(std::string(build.flags) + " " + std::string(build.c_flags),
                          options_by_language(side_options));
}

// eval.json's "build": how forge_add_operator() compiled the bench.
nlohmann::json build_json(const BuildInfo& build) {
    nlohmann::json json = {{eval_key::build_type, std::string(build.build_type)},
                           {"compiler", std::string(build.compiler)},
                           {"flags", std::string(build.flags)},
                           {eval_key::optimized, build.optimized}};
    if (!build.cuda_compiler.empty()) {
        json["cuda_compiler"] = std::string(build.cuda_compiler);
        json["cuda_flags"] = std::string(build.cuda_flags);
        json["cuda_architectures"] = std::string(build.cuda_architectures);
    }
    if (!build.c_compiler.empty()) {
        json["c_compiler"] = std::string(build.c_compiler);
        json["c_flags"] = std::string(build.c_flags);
    }
    if (!build.reference_options.empty() || !build.student_options.empty()) {
        json[eval_key::reference_options] = options_by_language(build.reference_options);
        json[eval_key::student_options] = options_by_language(build.student_options);
    }
    json["reference_target"] = side_target(build, build.reference_options);
    json["student_target"] = side_target(build, build.student_options);
    return json;
}

}  // namespace

int bench_main(int argc, char** argv, Bench (*make_bench)(), const std::optional<BuildInfo>& build) {
    std::optional<Arguments> args;
    try {
        args = parse(argc, argv);
    } catch (const std::invalid_argument& e) {
        std::cerr << "error: " << e.what() << "\n" << usage_text;
        return exit_code::usage;
    }
    if (!args) {
        std::cout << usage_text;
        return exit_code::ok;
    }

    try {
        // A previous run's eval.json must not outlive this run: if this one skips or
        // fails before writing, the checks find no eval (and skip) instead of
        // judging stale ratios.
        if (const std::optional<std::string> refusal = not_replaceable(args->eval)) {
            std::cerr << "error: --eval " << args->eval << " " << *refusal << "\n";
            return exit_code::usage;
        }
        std::error_code ignored;
        std::filesystem::remove(args->eval, ignored);
        // Made now, so a directory that cannot be made fails the command at once,
        // not after a run whose results then have nowhere to go.
        if (const std::filesystem::path directory = std::filesystem::path(args->eval).parent_path();
            !directory.empty()) {
            std::error_code made;
            std::filesystem::create_directories(directory, made);
            if (made) {
                std::cerr << "error: --eval " << args->eval << ": cannot make its directory " << directory << ": "
                          << made.message() << "; name a directory you can write to\n";
                return exit_code::usage;
            }
        }
        const ContractCheck check = check_contract(args->contract);
        if (check.refused() || !check.contract) {
            print_findings(check);
            std::cerr << "error: the contract " << check.path << " is refused; the bench does not run on it\n";
            return exit_code::usage;
        }
        const Bench card_bench = make_bench();
        // An A/A run times one side against itself; everything after this sees a bench like any other.
        const std::optional<AgainstItself> a_a =
            args->against_itself ? std::optional(against_itself(card_bench, *check.contract, *args->against_itself))
                                 : std::nullopt;
        const Bench& bench = a_a ? a_a->bench : card_bench;
        const WindowContract& contract = a_a ? a_a->contract : *check.contract;
        RunOptions options;
        options.operator_name = args->operator_name;
        options.eval_path = args->eval;
        options.quick = args->quick;
        options.precision = args->precision;
        options.time_cap_s = args->time_cap_s;
        options.history_path = history_path(*args);
        options.bench_identity = executable_digest();
        // An A/A run's history stays apart from the card's, even beside the same eval.json.
        if (a_a && !options.bench_identity.empty()) {
            options.bench_identity.append(" a_a:").append(to_string(*args->against_itself));
        }
        options.against_itself = args->against_itself;
        options.launch = launch_facts(std::getenv);
        options.log = &std::cerr;
        if (build) {
            options.build = build_json(*build);
            options.cuda_architectures = build->cuda_architectures;
            if (auto notice = side_options_notice(build->reference_options, build->student_options)) {
                options.notices.push_back(std::move(*notice));
            }
            // A CUDA card's timed work is the GPU's; its host code's instructions are not the question.
            if (BenchDefinition(bench).backend() == Backend::host) {
                if (auto notice =
                        baseline_target_notice(side_target(*build, build->reference_options),
                                               side_target(*build, build->student_options), cpu_vector_extensions())) {
                    options.notices.push_back(std::move(*notice));
                }
            }
            if (!build->optimized) {
                std::cerr << "warning: this bench was built without optimisation (build type '" << build->build_type
                          << "', flags '" << build->flags
                          << "'): its ratios time unoptimised code. Configure with -DCMAKE_BUILD_TYPE=Release.\n";
            }
        }
        if (BenchDefinition(bench).backend() == Backend::cuda) options.cuda_device = ctest_gpu_device();
        const RunResult result = run(bench, contract, options);
        if (result.exit_code == exit_code::usage || (result.exit_code != exit_code::skipped && result.eval.is_null())) {
            // Nothing ran (a refused definition, a device the driver cannot serve): no eval.json.
            for (const std::string& problem : result.problems) std::cerr << "error: " << problem << "\n";
        } else if (result.exit_code == exit_code::skipped) {
            // Not an error: CTest shows the skip, and eval.json keeps the reason for forge report.
            for (const std::string& problem : result.problems) std::cerr << "skipped: " << problem << "\n";
        } else {
            std::cerr << "[forge bench] wrote " << args->eval << (result.exit_code == exit_code::ok ? "" : " (failed)")
                      << "\n";
        }
        return result.exit_code;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return exit_code::problems;
    }
}

}  // namespace forge::bench
