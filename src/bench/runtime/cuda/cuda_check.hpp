// One way to check a CUDA runtime or CUPTI call: the error's name and text, what
// the call was for, and where it was made. The throwing form is for calls whose
// failure ends the run; the reporting form is for destructors and other places
// an exception must not leave (CUPTI's callbacks).
#pragma once

#include <cuda_runtime_api.h>
#include <cupti.h>

#include <source_location>
#include <string>
#include <string_view>

namespace forge::bench {

// CUPTI's own words for a result code.
[[nodiscard]] std::string cupti_result_text(CUptiResult result);

// "<what> failed (cuda_runtime.cpp:88): cudaErrorX: <CUDA's text>"; `what` names
// the call's purpose, e.g. "cudaMalloc(flush buffer)".
[[nodiscard]] std::string failure_text(cudaError_t error, std::string_view what, std::source_location where);
[[nodiscard]] std::string failure_text(CUptiResult result, std::string_view what, std::source_location where);

// Throws BenchError with failure_text when the call failed.
void check(cudaError_t error, std::string_view what, std::source_location where = std::source_location::current());
void check(CUptiResult result, std::string_view what, std::source_location where = std::source_location::current());

// Prints failure_text to stderr when the call failed; never throws. Returns
// whether the call succeeded.
bool report_failure(cudaError_t error, std::string_view what,
                    std::source_location where = std::source_location::current()) noexcept;
bool report_failure(CUptiResult result, std::string_view what,
                    std::source_location where = std::source_location::current()) noexcept;

}  // namespace forge::bench
