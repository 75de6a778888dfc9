#include "forge/bench/bench.hpp"

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

std::string_view to_string(Backend backend) noexcept { return backend == Backend::cuda ? "cuda" : "host"; }

std::int64_t Workload::operator[](std::string_view key) const {
    if (const auto found = params.find(key); found != params.end()) return found->second;
    std::string have;
    for (const auto& entry : params) have += (have.empty() ? "" : ", ") + entry.first;
    throw BenchError("workload '" + name + "' has no parameter '" + std::string(key) +
                     "' (it has: " + (have.empty() ? "none" : have) + "); add it to the workload's parameters");
}

Tolerance default_tolerance(DType dtype) noexcept {
    switch (dtype) {
        case DType::fp64: return {.atol = 1e-10, .rtol = 1e-9};
        case DType::fp32: return {.atol = 1e-5, .rtol = 1e-4};
        case DType::fp16: return {.atol = 1e-3, .rtol = 1e-3};
        case DType::bf16: return {.atol = 1e-2, .rtol = 1.6e-2};
        default: return {.atol = 0.0, .rtol = 0.0};
    }
}

Bench& Bench::workload(std::string name, std::map<std::string, std::int64_t, std::less<>> params,
                       std::uint64_t seed) {
    workloads_.push_back(Workload{std::move(name), std::move(params), seed});
    return *this;
}

Bench& Bench::inputs(MakeInputs make) {
    inputs_ = std::move(make);
    return *this;
}

Bench& Bench::outputs(DeclareOutputs declare) {
    outputs_ = std::move(declare);
    return *this;
}

Bench& Bench::reference(Call call) {
    reference_ = std::move(call);
    return *this;
}

Bench& Bench::student(Call call) {
    student_ = std::move(call);
    return *this;
}

Bench& Bench::prep(Prep step) {
    prep_ = std::move(step);
    return *this;
}

Bench& Bench::set_setup(Side side, SideSetup setup) {
    (side == Side::reference ? reference_setup_ : student_setup_) = std::move(setup);
    return *this;
}

Bench& Bench::tolerance(DType dtype, Tolerance tolerance) {
    dtype_tolerances_[dtype] = tolerance;
    return *this;
}

Bench& Bench::tolerance(std::string output, Tolerance tolerance) {
    output_tolerances_[std::move(output)] = tolerance;
    return *this;
}

Bench& Bench::tolerance(std::string output, RelativeL2 tolerance) {
    output_tolerances_[std::move(output)] = tolerance;
    return *this;
}

Bench& Bench::work(DeclareWork declare) {
    work_ = std::move(declare);
    return *this;
}

Bench& Bench::accumulates(std::string output, OutputStart start) {
    accumulating_[std::move(output)] = std::move(start);
    return *this;
}

Bench& Bench::precision(double fraction) {
    precision_ = fraction;
    return *this;
}

Comparison Bench::comparison_for(const TensorSpec& output) const {
    if (const auto found = output_tolerances_.find(output.name); found != output_tolerances_.end()) {
        return found->second;
    }
    if (const auto found = dtype_tolerances_.find(output.dtype); found != dtype_tolerances_.end()) {
        return found->second;
    }
    return default_tolerance(output.dtype);
}

std::vector<std::string> Bench::problems() const {
    std::vector<std::string> out;
    if (workloads_.size() < min_workloads) {
        out.push_back("the bench declares " + std::to_string(workloads_.size()) + " workload(s); the verdict is a "
                      "geometric mean over at least " + std::to_string(min_workloads) +
                      ": add workloads of other shapes with Bench::workload");
    }
    std::set<std::string, std::less<>> names;
    for (const Workload& w : workloads_) {
        if (w.name.empty()) out.push_back("a workload has an empty name: name it after its shape, e.g. m4096_n1024");
        if (!names.insert(w.name).second) out.push_back("two workloads are named '" + w.name + "': names must differ");
    }
    if (!inputs_) out.push_back("the bench makes no inputs: call Bench::inputs");
    if (!outputs_) out.push_back("the bench declares no output shapes: call Bench::outputs");
    if (!reference_) out.push_back("the bench has no reference call: call Bench::reference");
    if (!student_) out.push_back("the bench has no student call: call Bench::student");
    if (precision_ && !(*precision_ > 0.0 && *precision_ < 1.0)) {
        out.push_back("the precision " + std::to_string(*precision_) + " is not a fraction between 0 and 1: "
                      "Bench::precision(0.01) asks for +/-1%");
    }
    for (const auto& [name, comparison] : output_tolerances_) {
        if (const auto* tolerance = std::get_if<Tolerance>(&comparison);
            tolerance && !(tolerance->atol >= 0 && tolerance->rtol >= 0)) {
            out.push_back("the tolerance of '" + name + "' is negative or NaN");
        }
        if (const auto* l2 = std::get_if<RelativeL2>(&comparison); l2 && !(l2->max >= 0 && std::isfinite(l2->max))) {
            out.push_back("the relative L2 threshold of '" + name + "' is " + std::to_string(l2->max) +
                          ": give a finite fraction >= 0, e.g. fb::RelativeL2{.max = 1e-5}");
        }
    }
    for (const auto& [dtype, tolerance] : dtype_tolerances_) {
        if (tolerance.atol < 0 || tolerance.rtol < 0) {
            out.push_back("the " + std::string(to_string(dtype)) + " tolerance is negative");
        }
    }
    if (work_) {
        for (const Workload& w : workloads_) work_problems(work_, w, out);
    }
    return out;
}

}  // namespace forge::bench
