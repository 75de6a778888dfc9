#include "against_itself.hpp"

#include "definition.hpp"

namespace forge::bench {

AgainstItself against_itself(const Bench& bench, const WindowContract& contract, Side side) {
    WindowContract both = contract;
    const bool reference = side == Side::reference;
    both.reference_inputs = reference ? contract.reference_inputs : contract.student_inputs;
    both.reference_outputs = reference ? contract.reference_outputs : contract.student_outputs;
    both.reference_window = reference ? contract.reference_window : contract.student_window;
    both.student_inputs = both.reference_inputs;
    both.student_outputs = both.reference_outputs;
    both.student_window = both.reference_window;
    both.asymmetries.clear();
    return {BenchDefinition::against_itself(bench, side), std::move(both)};
}

}  // namespace forge::bench
