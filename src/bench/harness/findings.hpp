// What one workload's steps found, on its way to the run's record: notices and
// problems, each naming the workload, or a refusal that ends the run. A finding
// a step could make again (on every call of a side, on every workload alike)
// is said once, by a key that names what was found, never by its wording:
//
//   if (findings.once(finding_key(Side::student, "unwritten outputs"))) findings.problem("...");
//   if (findings.said(finding_key(Side::student, "unwritten outputs"))) return;  // its cause is known
#pragma once

#include <functional>
#include <set>
#include <string>
#include <string_view>

#include "forge/bench/bench.hpp"
#include "results/record.hpp"

namespace forge::bench {

// A key for what a side's calls did: "student: unwritten outputs".
[[nodiscard]] std::string finding_key(Side side, std::string_view what);

class Findings {
public:
    Findings(RunRecord& record, const Workload& workload) : record_(record), workload_(workload) {}

    // A refusal that ends the run (BenchError naming the workload).
    [[noreturn]] void fail(const std::string& message) const;
    // "workload '<name>': " and the message, to the record.
    void notice(const std::string& message);
    void problem(const std::string& message);
    // A notice as it is: one the whole run shares, which names the workload itself where that matters.
    void run_notice(const std::string& message);

    // Whether `key` is new in this workload (then it is kept), or in the run.
    [[nodiscard]] bool once(std::string_view key);
    [[nodiscard]] bool once_per_run(std::string_view key);
    // Whether `key` was said, in this workload or the run.
    [[nodiscard]] bool said(std::string_view key) const;
    // Whether the run failed a check so far, in any workload.
    [[nodiscard]] bool run_has_problems() const noexcept { return !record_.problems.empty(); }

private:
    RunRecord& record_;
    const Workload& workload_;
    std::set<std::string, std::less<>> said_;  // this workload's keys; the run's are the record's
};

}  // namespace forge::bench
