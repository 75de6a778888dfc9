#include "definition.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <string>

namespace forge::bench {

namespace {

// A count that is negative or not a number would give a throughput that means nothing.
void work_problems(const DeclareWork& declare, const Workload& workload, std::vector<std::string>& out) {
    Work work;
    try {
        work = declare(workload);
    } catch (const BenchError& e) {
        out.push_back(std::string("work(): ") + e.what());
        return;
    }
    const auto check = [&](const std::optional<double>& count, std::string_view what) {
        if (count && !(std::isfinite(*count) && *count >= 0)) {
            std::ostringstream message;
            message << "work() for workload '" << workload.name << "' gives " << what << " = " << *count
                    << ": give a finite count >= 0, or leave it out";
            out.push_back(message.str());
        }
    };
    check(work.flops, "flops");
    check(work.bytes, "bytes");
}

}  // namespace

Comparison BenchDefinition::comparison_for(const TensorSpec& output) const {
    const Bench& b = *bench_;
    if (const auto found = b.output_tolerances_.find(output.name); found != b.output_tolerances_.end()) {
        return found->second;
    }
    if (const auto found = b.dtype_tolerances_.find(output.dtype); found != b.dtype_tolerances_.end()) {
        return found->second;
    }
    return default_tolerance(output.dtype);
}

Bench BenchDefinition::against_itself(const Bench& bench, Side side) {
    Bench copy = bench;
    const bool reference = side == Side::reference;
    copy.reference_ = reference ? bench.reference_ : bench.student_;
    copy.student_ = copy.reference_;
    copy.reference_setup_ = reference ? bench.reference_setup_ : bench.student_setup_;
    copy.student_setup_ = copy.reference_setup_;
    return copy;
}

std::vector<std::string> BenchDefinition::problems() const {
    const Bench& b = *bench_;
    std::vector<std::string> out;
    if (b.workloads_.size() < min_workloads) {
        out.push_back("the bench declares " + std::to_string(b.workloads_.size()) +
                      " workload(s); the verdict is a "
                      "geometric mean over at least " +
                      std::to_string(min_workloads) + ": add workloads of other shapes with Bench::workload");
    }
    std::set<std::string, std::less<>> names;
    for (const Workload& w : b.workloads_) {
        if (w.name.empty()) out.push_back("a workload has an empty name: name it after its shape, e.g. m4096_n1024");
        if (!names.insert(w.name).second) out.push_back("two workloads are named '" + w.name + "': names must differ");
    }
    if (!b.inputs_) out.push_back("the bench makes no inputs: call Bench::inputs");
    if (!b.outputs_) out.push_back("the bench declares no output shapes: call Bench::outputs");
    if (!b.reference_) out.push_back("the bench has no reference call: call Bench::reference");
    if (!b.student_) out.push_back("the bench has no student call: call Bench::student");
    if (b.precision_ && !(*b.precision_ > 0.0 && *b.precision_ < 1.0)) {
        out.push_back("the precision " + std::to_string(*b.precision_) +
                      " is not a fraction between 0 and 1: "
                      "Bench::precision(0.01) asks for +/-1%");
    }
    for (const auto& [name, comparison] : b.output_tolerances_) {
        if (const auto* tolerance = std::get_if<Tolerance>(&comparison);
            tolerance && !(tolerance->atol >= 0 && tolerance->rtol >= 0)) {
            out.push_back("the tolerance of '" + name + "' is negative or NaN");
        }
        if (const auto* l2 = std::get_if<RelativeL2>(&comparison); l2 && !(l2->max >= 0 && std::isfinite(l2->max))) {
            out.push_back("the relative L2 threshold of '" + name + "' is " + std::to_string(l2->max) +
                          ": give a finite fraction >= 0, e.g. fb::RelativeL2{.max = 1e-5}");
        }
    }
    for (const auto& [dtype, tolerance] : b.dtype_tolerances_) {
        if (tolerance.atol < 0 || tolerance.rtol < 0) {
            out.push_back("the " + std::string(to_string(dtype)) + " tolerance is negative");
        }
    }
    if (b.work_) {
        for (const Workload& w : b.workloads_) work_problems(b.work_, w, out);
    }
    return out;
}

}  // namespace forge::bench
