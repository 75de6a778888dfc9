// The forge subcommands. main.cpp turns the command line into these options;
// each run_* function does one command and returns its exit code
// (include/forge/exit_code.hpp; docs/reference/cli.md's table per command).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/contract/contract.hpp"
#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"

namespace forge::cli {

enum class Format { text, markdown, json, html };  // html: `forge report` alone

struct Output {
    Format format = Format::text;
    bool colour = false;  // only ever on a terminal
};

struct CheckOptions {
    std::vector<std::string> paths;  // window.toml files or card directories
    // Hold the one contract's priced regexes against these tables: an eval.json's
    // (every workload), or a side's table file from `forge table import`.
    std::string eval;
    std::string student_table;
    std::string reference_table;
    Output output;
};

struct PrepOptions {
    std::string contract;
    std::string eval;
    Output output;
};

struct CreditOptions {
    std::string contract;
    std::string eval;
    // "WORKLOAD=FILE" (or FILE for an eval of one workload): that side's table
    // in that workload comes from a `forge table import` file, not the bench.
    std::vector<std::string> student_tables;
    std::vector<std::string> reference_tables;
    bool ctest = false;
    std::optional<double> gate;
    Output output;
};

struct TableImportOptions {
    std::string from;  // "ncu-csv" or "nsys-csv"
    std::string file;
    std::string out;   // empty: standard output
    long calls = 1;    // profiled calls the export covers
};

struct ReportOptions {
    std::vector<std::string> evals;
    // --compare-with OLD: an eval.json or a directory of them, each card of the
    // report compared with it as `forge compare OLD` would (information: the
    // exit code stays the report's).
    std::optional<std::string> compare_with;
    Output output;
};

struct CompareOptions {
    std::string old_run;  // an eval.json, or a directory holding them
    std::string new_run;
    double threshold = 1.0;  // a regression counts when the change's interval is wholly below it
    Output output;
};

struct ResourceSpecOptions {
    std::string out;  // empty: standard output
    std::optional<long> gpus;
    long slots = 1;
};

// The contract at `path` when it is declared and consistent; otherwise prints
// its findings and returns nullopt (the caller exits 13).
std::optional<WindowContract> accepted_contract(const std::string& path);

// The eval at `path`; nullopt, said on standard output, when there is none or
// it records a skipped bench ("skipped": {"reason"}): the bench did not run, the
// caller exits 77. Throws EvalError when it is malformed.
std::optional<EvalReport> existing_eval(const std::string& path);

// Whether `eval` was measured under `contract`'s text (EvalReport::measured_under);
// otherwise says so on standard error, naming both files and the fix (the
// caller exits 2): its verdicts would judge the run by a contract it never had.
bool measured_under(const WindowContract& contract, const EvalReport& eval, std::string_view command);

// "<file>: error[regex-unmatched] (workloads a, b): message"
void print_issue(std::ostream& out, const std::string& file, const CreditIssue& issue, std::string_view severity);

int run_check(const CheckOptions& options);
int run_prep(const PrepOptions& options);
int run_credit(const CreditOptions& options);
int run_table_import(const TableImportOptions& options);
int run_report(const ReportOptions& options);
int run_compare(const CompareOptions& options);
int run_resource_spec(const ResourceSpecOptions& options);

}  // namespace forge::cli
