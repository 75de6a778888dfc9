#include "harness/side_state.hpp"

#include <exception>

#include "access.hpp"
#include "side_call_error.hpp"

namespace forge::bench {

void SideState::use_layout(std::size_t l) {
    layout = l;
    detail::Access::unbind_all(io);
    for (Tensor& input : inputs()) detail::Access::bind_input(io, input.name(), input);
    for (Tensor& output : outputs()) detail::Access::bind_output(io, output.name(), output);
}

SideStates::SideStates(const Workload& workload, Stream stream)
    : states_{SideState{Side::reference, detail::Access::make_io(Side::reference, workload, stream)},
              SideState{Side::student, detail::Access::make_io(Side::student, workload, stream)}} {}

void evict_before_call(Runtime& runtime, SideState& state) {
    for (const Tensor& output : state.outputs()) runtime.evict(output);
    runtime.evict_side_memory();
    runtime.release_side_threads();
}

void call_side(const BenchDefinition& bench, SideState& state, const Findings& findings) {
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
