// The prep step held to the declaration: what the bench reports its prep step
// produced (eval.json `performance.prep`) against the contract's symmetrize
// entries (the Python oracle's check_prep_report), plus the bench's own
// correctness verdict. What `forge prep` prints; any problem fails it (exit 1).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/contract.hpp"
#include "forge/eval/eval.hpp"
#include "forge/prep/dtype.hpp"

namespace forge {

// Problem codes: stable, tests and dashboards match on them.
namespace prep_code {
inline constexpr std::string_view unreported = "prep-unreported";     // subject: none
inline constexpr std::string_view mutated = "prep-mutated";           // subject: the mutated names, ", "-joined
inline constexpr std::string_view missing = "prep-missing";           // subject: the tensor
inline constexpr std::string_view shape = "prep-shape";               // subject: the tensor
inline constexpr std::string_view dtype = "prep-dtype";               // subject: the tensor
inline constexpr std::string_view undeclared = "prep-undeclared";     // subject: the tensor
inline constexpr std::string_view eval_incorrect = "eval-incorrect";  // subject: none
}  // namespace prep_code

struct PrepProblem {
    std::string code;
    std::optional<std::string> subject;
    std::string message;
    // A multi-workload prep block: the workloads this problem was seen on, in
    // order (the same problem on several workloads is said once). Empty for a
    // single block.
    std::vector<std::string> workloads;

    friend bool operator==(const PrepProblem&, const PrepProblem&) = default;
};

// Holds a prep block (null when the eval has none) to the contract's
// prep-produced symmetrize entries. Empty when there is nothing to hold (the
// contract is undeclared or symmetrizes nothing the prep step makes) or all is
// held. A block with a non-empty "workloads" list is held per workload.
//
// Where the oracle is odd, on purpose:
// - a non-empty "workloads" list holding no object is `prep-unreported` (the
//   oracle says nothing);
// - the timed call's mutations are one `prep-mutated` problem per block, its
//   subject the names as reported, ", "-joined (as the oracle words it), so
//   the problems group over workloads as the oracle's do;
// - a reported shape that Python's int() cannot read ("4096x64", null, a
//   number where a list belongs) is a `prep-shape` problem for that tensor
//   (the oracle raises); so is one past 64 bits;
// - undeclared tensors come in name order (the oracle: report order).
[[nodiscard]] std::vector<PrepProblem> check_prep_report(const WindowContract& contract,
                                                         const nlohmann::json& prep_block);

// The whole eval as `forge prep` holds it: `eval-incorrect` first when the
// bench reported a failed correctness check, then check_prep_report on its
// prep block.
[[nodiscard]] std::vector<PrepProblem> check_prep(const WindowContract& contract, const EvalReport& eval);

// {"code", "subject" (null when none), "message", "workloads"}
[[nodiscard]] nlohmann::json to_json(const PrepProblem& problem);

// {"problems": [...]}: what `forge prep --format json` prints.
[[nodiscard]] nlohmann::json problems_json(std::span<const PrepProblem> problems);

}  // namespace forge
