// `forge credit` for people: per workload, both sides' per-kernel tables side by
// side with the priced rows marked, the priced shares, the raw and the credited
// ratio; then the run's ratios. Text for a terminal, Markdown for a PR comment.
#pragma once

#include <iosfwd>

#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"

namespace forge {

void render_credit_text(std::ostream& out, const EvalReport& eval, const RunCredit& run, bool colour);
void render_credit_markdown(std::ostream& out, const EvalReport& eval, const RunCredit& run);

}  // namespace forge
