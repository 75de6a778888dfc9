// Pricing the declared extra work off each side's per-kernel table (the
// Python oracle's window_credit / credited_ratio): which share of each side's
// kernel time the `price` entries' regexes name, whether that share can be
// trusted, and the ratio with it taken out of both readings. A diagnostic shown
// beside the raw ratio, never the verdict. What `forge credit` prints.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/contract.hpp"
#include "forge/eval/eval.hpp"
#include "forge/table/kernel_table.hpp"

namespace forge {

// A profiled per-call kernel total may sit this far from the timed reading
// before a credit read off that table is refused as unreconciled.
inline constexpr double coverage_band = 0.20;

// A side's priced regexes matching this share of its time (or every row of its
// table) price what is most likely the whole call, not the declared extra work.
inline constexpr double implausible_fraction = 0.90;

// Why a credit is not usable, and what makes one doubtful: stable codes that
// reports and dashboards match on.
namespace credit_code {
inline constexpr std::string_view table_missing = "table-missing";
inline constexpr std::string_view regex_unmatched = "regex-unmatched";
inline constexpr std::string_view coverage_out_of_band = "coverage-out-of-band";
inline constexpr std::string_view match_implausible = "match-implausible";  // a warning: the credit stays usable
}  // namespace credit_code


// What a side's table rows are, so messages speak of what the user marked:
// CUDA kernels (CUPTI) or HOST regions (forge::bench::region).
enum class TableRows { kernels, regions };

// Regions for a HOST eval ("backend": "host"), kernels otherwise.
[[nodiscard]] TableRows table_rows(const EvalReport& eval) noexcept;

// A priced entry's regex that Boost cannot compile, or whose matching exceeds
// Boost's complexity bound on a kernel name (never a hang). Regexes compile
// before any table is read, so an invalid one is an error even where the
// oracle, with no table to search, never compiles it (`forge check` refuses
// such a contract first).
struct CreditError : std::runtime_error {
    CreditError(std::string message, std::string entry, std::string kernel);

    std::string entry;   // the entry's subject, e.g. "ref_input=A"
    std::string kernel;  // the kernel name being matched; "" when the regex does not compile
};

// One side's entries priced against that side's table.
struct SideCredit {
    std::vector<std::string> priced;     // the side's priced entries, by name, in file order
    double fraction = 0.0;               // matched_ns / total_ns (0 when the total is not positive)
    std::vector<std::string> matched;    // names of the matching rows, sorted, once each
    double matched_ns = 0.0;             // every matching row counted once (also two rows of one name)
    double total_ns = 0.0;               // all rows; 0 when the side prices nothing or has no table
    std::vector<std::string> unmatched;  // priced entries whose regex matched no row, in file order
    bool table = false;                  // the side has a table with at least one row
};

struct CreditReason {
    std::string code;  // credit_code::*
    std::string message;

    friend bool operator==(const CreditReason&, const CreditReason&) = default;
};

// Profiled per-call kernel time / timed reading, per priced side where both
// figures exist, rounded to 3 decimals.
struct Reconciliation {
    std::optional<double> student;
    std::optional<double> reference;

    [[nodiscard]] bool empty() const noexcept { return !student && !reference; }
};

struct Credit {
    SideCredit student;
    SideCredit reference;
    bool usable = false;                // tables present, every regex matched, coverage in band
    std::vector<CreditReason> why;      // empty when usable
    std::vector<std::string> unpriced;  // price-class entries without the payer's regex
    Reconciliation reconciliation;
    // credit_code::match_implausible per side that prices (nearly) all of its
    // time. Not part of the oracle's result: shown beside it.
    std::vector<CreditReason> warnings;

    [[nodiscard]] const SideCredit& side(Side s) const noexcept { return s == Side::student ? student : reference; }
};

struct CreditedRatio {
    double credited_student_ms = 0.0;  // student_ms * (1 - student fraction)
    double credited_ref_ms = 0.0;      // ref_ms * (1 - reference fraction)
    double student_ms = 0.0;
    double ref_ms = 0.0;
    double credited_ratio = 0.0;  // credited_ref_ms / credited_student_ms
    double raw_ratio = 0.0;       // ref_ms / student_ms
    double student_fraction = 0.0;
    double reference_fraction = 0.0;
};

// (profiler total_ns / calls / 1e6) / window_ms, as timing_audit.ncu_coverage:
// nullopt without a digest or reading, for a reading that is not positive, a
// total that is not a number (NaN) or calls that are not positive.
[[nodiscard]] std::optional<double> coverage(const std::optional<ProfilerDigest>& profiler,
                                             std::optional<double> window_ms) noexcept;

// The contract's priced entries against one workload's two sides. nullopt when
// nothing is priced (an undeclared contract, no price entry with the payer's
// regex). Throws CreditError (see above).
[[nodiscard]] std::optional<Credit> window_credit(const WindowContract& contract, const SideReading& student,
                                                  const SideReading& reference, TableRows rows = TableRows::kernels);

// The ratio with the priced work taken out of both readings; nullopt when the
// credit is absent or not usable, a reading is missing or 0, or a credited
// reading is not positive.
[[nodiscard]] std::optional<CreditedRatio> credited_ratio(const std::optional<Credit>& credit,
                                                          std::optional<double> student_ms,
                                                          std::optional<double> ref_ms) noexcept;

struct WorkloadCredit {
    std::string name;
    std::optional<Credit> credit;
    std::optional<CreditedRatio> ratio;
};

struct RunCredit {
    std::vector<WorkloadCredit> workloads;
    // The eval's performance.ratio; when it has none, the geometric mean of the
    // workloads' reference_ms / student_ms (nullopt when one cannot be formed).
    std::optional<double> raw_ratio;
    // Geometric mean of the workloads' credited ratios; only when every
    // workload (at least one) has one, i.e. every credit is usable.
    std::optional<double> credited_ratio;
};

// Every workload of an eval priced with the contract (regexes compiled once).
// Throws CreditError (see above).
[[nodiscard]] RunCredit credit_run(const WindowContract& contract, const EvalReport& eval);

// A reason or warning of a run's credits, said once for all the workloads
// whose credit carries the same text.
struct CreditIssue {
    std::string code;
    std::string message;
    std::vector<std::string> workloads;
};

// The run's regex-unmatched reasons (a regex that matched none of the payer's
// rows while a table was there), in order of first appearance.
[[nodiscard]] std::vector<CreditIssue> unmatched_regexes(const RunCredit& run);
// The run's credit warnings (match-implausible), likewise.
[[nodiscard]] std::vector<CreditIssue> credit_warnings(const RunCredit& run);
// {"code", "message", "workloads"} each.
[[nodiscard]] nlohmann::json to_json(const std::vector<CreditIssue>& issues);

// The credited ratio's interval, derived: the raw ratio's interval (`raw`, around
// run.raw_ratio) carried onto the credited ratio, low and high times credited /
// raw ratio, so that it holds the credited ratio as `raw` holds the raw one. It
// carries the timing uncertainty of the raw ratio and treats the priced
// fractions as exact (they come from the profiled calls' tables, which have no
// interval). nullopt when the run has no credited ratio.
[[nodiscard]] std::optional<RatioCi> credited_ratio_ci(const RunCredit& run, const RatioCi& raw);

// The oracle's window_credit result: student/reference {fraction, matched,
// matched_ns, total_ns, priced, unmatched, table}, usable, why [{code, message}],
// unpriced, and reconciliation {student?, reference?} only when it has a side.
[[nodiscard]] nlohmann::json to_json(const Credit& credit);
// The oracle's credited_ratio result.
[[nodiscard]] nlohmann::json to_json(const CreditedRatio& ratio);
// What `forge credit --format json` prints: {"workloads": [{"name", "credit",
// "ratio", "warnings"}], "raw_ratio", "credited_ratio"} (null where absent;
// "warnings": the credit's [{"code", "message"}], [] without a credit).
[[nodiscard]] nlohmann::json to_json(const RunCredit& run);

}  // namespace forge
