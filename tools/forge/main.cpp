// forge: the command line of ForgeKernel. Parses arguments (CLI11) and hands
// each subcommand to its run_* function; every error becomes an exit code.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "forge/ctest/launcher.hpp"
#include "forge/exit_code.hpp"
#include "commands.hpp"

namespace {

using forge::cli::Format;

const std::map<std::string, Format> text_json{{"text", Format::text}, {"json", Format::json}};
const std::map<std::string, Format> all_formats{
    {"text", Format::text}, {"markdown", Format::markdown}, {"json", Format::json}};
// The pages are report's and compare's alone; the other commands refuse --format
// html with the choices they have.
std::map<std::string, Format> page_formats() {
    return {{"text", Format::text}, {"markdown", Format::markdown}, {"json", Format::json}, {"html", Format::html}};
}

// --format and --color, shared by the commands that print for people and machines.
void add_output_options(CLI::App& command, forge::cli::Output& output, std::string& colour,
                        const std::map<std::string, Format>& formats) {
    std::string names;
    for (const auto& [name, format] : formats) names += (names.empty() ? "" : "|") + name;
    // The choices by name: CLI11's own text would show the map, "{json->2,text->0} OR {2,0}".
    // A format this command does not write, refused in words before CLI11's own
    // text (the map again); HTML names the command that writes it.
    const auto known = [formats, names](std::string& text) -> std::string {
        std::string name = text;
        std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
        if (formats.contains(name)) return {};
        return "'" + text + "' is not a format of this command, which writes {" + names + "}" +
               (name == "html" ? "; `forge report --format html` writes the HTML page" : "");
    };
    command.add_option("--format", output.format, "Output format")
        ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description("{" + names + "}"))
        ->transform(CLI::Validator(known, ""))
        ->default_str("text");
    command.add_option("--color", colour, "Colour the text output: auto (on a terminal), always, never")
        ->check(CLI::IsMember({"auto", "always", "never"}))
        ->default_str("auto");
}

// A number above 0 (or, `zero_allowed`, at least 0): CLI11's PositiveNumber
// names its range up to DBL_MAX, in 300 digits; this says what it wants and got.
CLI::Validator positive_number(bool zero_allowed, const std::string& example) {
    const std::string wanted = std::string("a number ") + (zero_allowed ? "at least 0" : "above 0") + ", such as " +
                               example;
    return {[=](std::string& text) -> std::string {
                char* end = nullptr;
                const double value = std::strtod(text.c_str(), &end);
                const bool number = !text.empty() && end == text.c_str() + text.size() && std::isfinite(value);
                if (number && (value > 0.0 || (zero_allowed && value == 0.0))) return {};
                return "expected " + wanted + ", not '" + text + "'";
            },
            zero_allowed ? "NUMBER >= 0" : "NUMBER > 0"};
}

bool wants_colour(const std::string& setting) {
    if (setting == "always") return true;
    if (setting == "never") return false;
    return ::isatty(STDOUT_FILENO) == 1 && std::getenv("NO_COLOR") == nullptr;
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"forge: timed-window contracts for kernel benchmarks (ForgeKernel " FORGE_VERSION ")", "forge"};
    app.set_version_flag("--version", "forge " FORGE_VERSION);
    app.require_subcommand(1);

    std::string colour = "auto";

    forge::cli::CheckOptions check;
    auto* check_cmd = app.add_subcommand("check", "Parse and validate window.toml contracts (exit 13 when any is refused)");
    check_cmd->add_option("paths", check.paths, "window.toml files or operator card directories")->required();
    auto* check_eval = check_cmd->add_option(
        "--eval", check.eval,
        "Also hold the contract's priced regexes against this eval.json's kernel tables (every workload; exit 1 "
        "when one matches nothing)");
    check_cmd
        ->add_option("--student-table", check.student_table,
                     "... or against this student table from `forge table import`")
        ->excludes(check_eval);
    check_cmd
        ->add_option("--reference-table", check.reference_table,
                     "... or against this reference table from `forge table import`")
        ->excludes(check_eval);
    add_output_options(*check_cmd, check.output, colour, text_json);

    forge::cli::PrepOptions prep;
    auto* prep_cmd = app.add_subcommand("prep", "Hold the bench's prep report to the contract's symmetrize entries");
    prep_cmd->add_option("--contract", prep.contract, "The operator's window.toml (or its card directory)")->required();
    prep_cmd->add_option("--eval", prep.eval, "The bench's eval.json")->required();
    add_output_options(*prep_cmd, prep.output, colour, text_json);

    forge::cli::CreditOptions credit;
    auto* credit_cmd = app.add_subcommand(
        "credit", "Show both per-kernel tables, the priced shares, and the raw and credited ratio");
    credit_cmd->add_option("--contract", credit.contract, "The operator's window.toml (or its card directory)")->required();
    credit_cmd->add_option("--eval", credit.eval, "The bench's eval.json")->required();
    credit_cmd->add_option("--student-table", credit.student_tables,
                           "WORKLOAD=FILE: price the student's side of that workload off this table from `forge table "
                           "import` (FILE alone for an eval of one workload); repeatable");
    credit_cmd->add_option("--reference-table", credit.reference_tables,
                           "WORKLOAD=FILE: the same for the reference's side");
    credit_cmd->add_flag("--ctest", credit.ctest, "Also print the figures as CTest measurements for CDash");
    credit_cmd->add_option("--gate", credit.gate,
                           "Minimum raw ratio: exit 0 when the ratio's 95% interval clears it, 1 when the interval is "
                           "below it, 3 when it straddles it (a near-tie)")->check(positive_number(false, "0.9"));
    add_output_options(*credit_cmd, credit.output, colour, all_formats);

    forge::cli::TableImportOptions table_import;
    auto* table_cmd = app.add_subcommand("table", "Per-kernel tables from profilers");
    table_cmd->require_subcommand(1);
    auto* import_cmd = table_cmd->add_subcommand("import", "Convert an Nsight Compute or Nsight Systems CSV export to a kernel table");
    import_cmd->add_option("--from", table_import.from, "The export's kind")
        ->required()
        ->check(CLI::IsMember({"ncu-csv", "nsys-csv"}));
    import_cmd->add_option("file", table_import.file, "The CSV export")->required();
    import_cmd->add_option("-o,--output", table_import.out, "Write the table JSON here (default: standard output)");
    import_cmd->add_option("--calls", table_import.calls, "How many timed calls the export profiled")
        ->check(positive_number(false, "3"))
        ->default_str("1");

    forge::cli::ReportOptions report;
    auto* report_cmd = app.add_subcommand("report", "One summary over many operators' eval.json files");
    report_cmd->add_option("evals", report.evals, "eval.json files")->required();
    report_cmd->add_option("--compare-with", report.compare_with,
                           "OLD: an eval.json, or a directory holding them; adds each card's change since that run "
                           "(as forge compare OLD NEW), after the report or as the page's 'Change since' section");
    add_output_options(*report_cmd, report.output, colour, page_formats());

    forge::cli::CompareOptions compare;
    auto* compare_cmd = app.add_subcommand(
        "compare", "Did each card's raw ratio change from the OLD run to the NEW one, beyond the noise between runs?");
    compare_cmd->add_option("old", compare.old_run, "OLD: an eval.json, or a directory holding them (a build tree)")
        ->required();
    compare_cmd->add_option("new", compare.new_run, "NEW: the same for the run after the change")->required();
    compare_cmd
        ->add_option("--threshold", compare.threshold,
                     "Exit 1 only for a card whose change's 95% interval lies wholly below this (0.95: more than "
                     "5% slower against its reference)")
        ->check(positive_number(false, "0.95"))
        ->default_str("1");
    add_output_options(*compare_cmd, compare.output, colour, page_formats());

    forge::cli::ResourceSpecOptions resource_spec;
    auto* resource_cmd = app.add_subcommand("resource-spec", "Write a CTest resource spec listing this machine's GPUs");
    resource_cmd->add_option("-o,--output", resource_spec.out, "Write the spec here (default: standard output)");
    resource_cmd->add_option("--gpus", resource_spec.gpus, "GPU count (default: the GPUs visible here)")
        ->check(positive_number(true, "1"));
    resource_cmd->add_option("--slots", resource_spec.slots, "Benches that may share one GPU at a time")
        ->check(positive_number(false, "2"))
        ->default_str("1");

    // Registered for --help; its command line is taken as it is, below.
    app.add_subcommand(
        "launch",
        "forge launch -- LAUNCHER... BENCH...: run a bench through a launcher (srun ...), which is sent SIGTERM "
        "when this process is killed (CTest's timeout), so no job outlives its test");
    // Everything after `launch --` is the command, the launcher's own options included.
    if (argc >= 2 && std::string_view(argv[1]) == "launch" &&
        !(argc >= 3 && (std::string_view(argv[2]) == "--help" || std::string_view(argv[2]) == "-h"))) {
        std::vector<std::string> command(argv + 2, argv + argc);
        if (!command.empty() && command.front() == "--") command.erase(command.begin());
        if (command.empty()) {
            std::cerr << "forge launch: no command given; usage: forge launch -- LAUNCHER... BENCH...\n";
            return forge::exit_code::usage;
        }
        return forge::run_under_launcher(command);
    }

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);  // prints help, the version, or the error
        return code == 0 ? forge::exit_code::ok : forge::exit_code::usage;
    }

    for (forge::cli::Output* output : {&check.output, &prep.output, &credit.output, &report.output, &compare.output}) {
        output->colour = output->format == Format::text && wants_colour(colour);
    }

    try {
        if (*check_cmd) return forge::cli::run_check(check);
        if (*prep_cmd) return forge::cli::run_prep(prep);
        if (*credit_cmd) return forge::cli::run_credit(credit);
        if (*import_cmd) return forge::cli::run_table_import(table_import);
        if (*report_cmd) return forge::cli::run_report(report);
        if (*compare_cmd) return forge::cli::run_compare(compare);
        if (*resource_cmd) return forge::cli::run_resource_spec(resource_spec);
    } catch (const std::exception& e) {
        // Unreadable or malformed inputs other than the contract: the message names the file.
        std::cerr << "forge: error: " << e.what() << '\n';
        return forge::exit_code::usage;
    }
    return forge::exit_code::usage;
}
