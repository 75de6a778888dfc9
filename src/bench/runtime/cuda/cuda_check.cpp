#include "runtime/cuda/cuda_check.hpp"

#include <filesystem>
#include <iostream>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

namespace {

std::string located(std::string_view what, std::source_location where) {
    return std::string(what) + " failed (" + std::filesystem::path(where.file_name()).filename().string() + ":" +
           std::to_string(where.line()) + ")";
}

}  // namespace

std::string cupti_result_text(CUptiResult result) {
    const char* text = nullptr;
    cuptiGetResultString(result, &text);
    return text != nullptr ? text : "unknown CUPTI error " + std::to_string(static_cast<int>(result));
}

std::string failure_text(cudaError_t error, std::string_view what, std::source_location where) {
    return located(what, where) + ": " + cudaGetErrorName(error) + ": " + cudaGetErrorString(error);
}

std::string failure_text(CUptiResult result, std::string_view what, std::source_location where) {
    return located(what, where) + ": CUPTI: " + cupti_result_text(result);
}

void check(cudaError_t error, std::string_view what, std::source_location where) {
    if (error != cudaSuccess) throw BenchError(failure_text(error, what, where));
}

void check(CUptiResult result, std::string_view what, std::source_location where) {
    if (result != CUPTI_SUCCESS) throw BenchError(failure_text(result, what, where));
}

bool report_failure(cudaError_t error, std::string_view what, std::source_location where) noexcept {
    if (error == cudaSuccess) return true;
    try {
        std::cerr << "[forge bench] " << failure_text(error, what, where) << "\n";
    } catch (...) {  // nothing left to say it with
    }
    return false;
}

bool report_failure(CUptiResult result, std::string_view what, std::source_location where) noexcept {
    if (result == CUPTI_SUCCESS) return true;
    try {
        std::cerr << "[forge bench] " << failure_text(result, what, where) << "\n";
    } catch (...) {  // nothing left to say it with
    }
    return false;
}

}  // namespace forge::bench
