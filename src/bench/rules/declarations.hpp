// A bench's definition held to its window.toml before anything is timed: the
// tensors each side declares, the outputs' specs, the inputs made from a seed,
// and the checks that need no device.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "forge/bench/bench.hpp"
#include "forge/contract/contract.hpp"

#include "definition.hpp"

namespace forge::bench {

inline constexpr std::array sides{Side::reference, Side::student};

// Input contents alternate between variants from sample to sample, at the same
// addresses, so a call that returns outputs kept from an earlier call is caught.
inline constexpr int input_variants = 2;

// The seed of input variant `variant` of the workload.
[[nodiscard]] std::uint64_t variant_seed(const Workload& workload, int variant);

[[nodiscard]] std::string side_name(Side side);

[[nodiscard]] const std::vector<std::string>& declared_inputs(const WindowContract& contract, Side side);
[[nodiscard]] const std::vector<std::string>& declared_outputs(const WindowContract& contract, Side side);
[[nodiscard]] bool contains(const std::vector<std::string>& names, std::string_view name);

// Throws BenchError, the message prefixed with the workload's name.
[[noreturn]] void fail_in(const Workload& workload, const std::string& message);

// The workload's outputs by name, as outputs() declares them, held to window.toml
// and to Bench::accumulates (fail_in on a mismatch).
[[nodiscard]] std::map<std::string, TensorSpec> declared_output_specs(const BenchDefinition& bench,
                                                                      const WindowContract& contract,
                                                                      const Workload& workload);

// The inputs the bench makes for the workload from `seed`, all in host memory.
[[nodiscard]] Tensors make_host_inputs(const BenchDefinition& bench, const Workload& workload, std::uint64_t seed);

// Why a declared input is missing: inputs() did not make it, the prep step did not produce it.
[[nodiscard]] std::string unmade_input(Side side, const std::string& name, const std::vector<std::string>& made,
                                       const std::vector<std::string>& prep_produced);

// Every check of the definition against window.toml that needs no device, run
// before the runtime exists, so a machine without a GPU fails a mistaken CUDA
// bench instead of skipping it.
[[nodiscard]] std::vector<std::string> declaration_problems(const BenchDefinition& bench,
                                                            const WindowContract& contract);

}  // namespace forge::bench
