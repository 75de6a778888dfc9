#include "harness/workload_context.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <utility>

#include "access.hpp"
#include "runtime/timer.hpp"
#include "side_call_error.hpp"

namespace forge::bench {

WorkloadContext::WorkloadContext(const BenchDefinition& bench_, const WindowContract& contract_, Runtime& runtime_,
                                 const RunOptions& options_, const Workload& workload_, RunRecord& record_)
    : bench(bench_), contract(contract_), runtime(runtime_), options(options_), workload(workload_), record(record_),
      findings(record_, workload_),
      sides{SideState{Side::reference, detail::Access::make_io(Side::reference, workload_, runtime_.stream())},
            SideState{Side::student, detail::Access::make_io(Side::student, workload_, runtime_.stream())}} {}

const Tensor& WorkloadContext::to_host(const Tensor& tensor, Tensors& scratch) {
    if (tensor.place() == Place::host) return tensor;
    Tensor* copy = scratch.find(tensor.name());
    if (copy == nullptr) copy = &scratch.add(tensor.name(), tensor.shape(), tensor.dtype());
    runtime.copy(tensor, *copy);
    return *copy;
}

void WorkloadContext::use_layout(SideState& state, std::size_t layout) {
    state.layout = layout;
    detail::Access::unbind_all(state.io);
    for (const std::string& name : declared_inputs(contract, state.side)) {
        detail::Access::bind_input(state.io, name, state.inputs().at(name));
    }
    for (const std::string& name : declared_outputs(contract, state.side)) {
        detail::Access::bind_output(state.io, name, state.outputs().at(name));
    }
}

void WorkloadContext::load(SideState& state, int variant) {
    const Tensors& pool = pools[static_cast<std::size_t>(variant)];
    for (Tensor& input : state.inputs()) runtime.copy(pool.at(input.name()), input);
    for (Tensor& output : state.outputs()) {
        if (const Tensor* start = output_starts.find(output.name())) runtime.copy(*start, output);
    }
}

void WorkloadContext::flush_caches(SideState& state) {
    if (!round_swept_) runtime.flush_cache();
    evict_tensors(state);
}

void WorkloadContext::evict_tensors(SideState& state) {
    for (const Tensor& input : state.inputs()) runtime.evict(input);
    for (const Tensor& output : state.outputs()) runtime.evict(output);
    runtime.release_side_threads();
}

WorkloadContext::SweptRound::SweptRound(WorkloadContext& context, double* sweep_s) : context_(context) {
    if (!context_.runtime.evicts_tensors()) return;
    const std::int64_t start = now_ns();
    context_.runtime.flush_cache();
    if (sweep_s != nullptr) *sweep_s += static_cast<double>(now_ns() - start) * 1e-9;
    context_.round_swept_ = true;
}

void WorkloadContext::call(SideState& state) {
    try {
        bench.call(state.side)(state.io);
    } catch (const SideCallError& e) {
        findings.fail(e.what());
    } catch (const BenchError& e) {
        findings.fail("the " + side_name(state.side) + "'s call: " + e.what());
    } catch (const std::exception& e) {
        findings.fail("the " + side_name(state.side) + "'s call threw: " + e.what());
    } catch (...) {
        findings.fail("the " + side_name(state.side) + "'s call threw something that is not a std::exception");
    }
}

}  // namespace forge::bench
