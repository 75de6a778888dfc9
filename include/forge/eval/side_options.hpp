// Whether the two sides were compiled alike (eval.json's build.reference_options
// and build.student_options). A card's sides are separate targets: options one
// of them got alone (a student's -fopenmp or -march=native, a library given to
// one side) are a difference between the timed calls that no window declares.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace forge {

// A side's compile options, by language ("CXX", "C", "CUDA").
using OptionsByLanguage = std::map<std::string, std::vector<std::string>>;

// "the student alone has -fopenmp (C), -msse3 (C, CXX); the reference alone has
// -O3 (CXX)": the options only one side was compiled with, each once with its
// languages; "" when none.
[[nodiscard]] std::string options_one_side_has_alone(const OptionsByLanguage& reference,
                                                     const OptionsByLanguage& student);

}  // namespace forge
