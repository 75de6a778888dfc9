#include "forge/bench/bench.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <string>

namespace forge::bench {

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

Bench& Bench::set_setup(Side side, detail::SideSetup setup) {
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

}  // namespace forge::bench
