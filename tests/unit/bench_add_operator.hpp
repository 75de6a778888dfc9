// The harness tests' operator: c = a + b on n floats, the smallest one with
// inputs and an output; its contract, and what the tests ask of a run. Shared by
// the HOST harness, CLI and adversary tests and the CUDA adversary tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <vector>

#include <unistd.h>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"

// c = a + b on the host.
inline void add(forge::bench::Io& io) {
    const auto a = io.in("a").span<const float>();
    const auto b = io.in("b").span<const float>();
    auto c = io.out("c").span<float>();
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
}

// Every workload's tensors, by its parameter n: inputs a and b (n normal floats)
// and output c (n floats).
inline void add_tensors(forge::bench::Bench& bench) {
    namespace fb = forge::bench;
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) { return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}}; });
}

// Both sides take a and b and give c. With `prep_n`, both also receive `s`, n
// floats that the prep step produces (a symmetrize entry).
inline forge::WindowContract add_contract(std::int64_t prep_n = 0) {
    forge::WindowContract c;
    c.reference_inputs = {"a", "b"};
    c.student_inputs = {"a", "b"};
    c.reference_outputs = {"c"};
    c.student_outputs = {"c"};
    if (prep_n > 0) {
        c.reference_inputs.push_back("s");
        c.student_inputs.push_back("s");
        forge::Asymmetry s;
        s.kind = forge::Kind::ref_input;
        s.name = "s";
        s.cls = "symmetrize";
        s.produced_by = "prep";
        s.shape = std::vector<std::int64_t>{prep_n};
        s.dtype = "fp32";
        s.index = 1;
        c.asymmetries.push_back(s);
    }
    return c;
}

// The options of a quick run of operator "add", as the tests make them. The
// flush sweeps 8 MiB, not twice the last-level cache (1 GiB where a VM reports
// a 508 MiB L3): these tests check what the harness does, not how cold a cache
// is, and the full sweep before every call made one run take 6 s.
inline forge::bench::RunOptions quick_options() {
    forge::bench::RunOptions options;
    options.operator_name = "add";
    options.quick = true;
    options.host_flush_bytes = std::size_t{8} << 20;
    return options;
}

inline forge::bench::RunResult quick_run(const forge::bench::Bench& bench, const forge::WindowContract& contract) {
    return forge::bench::run(bench, contract, quick_options());
}

// A directory of the test's own under the system's temporary one, emptied
// first and removed with it.
struct TempDir {
    std::filesystem::path path;
    explicit TempDir(const std::string& name)
        : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    ~TempDir() { std::filesystem::remove_all(path); }
};

// Whether one message holds every text.
inline bool any_has(const std::vector<std::string>& messages, std::initializer_list<std::string> texts) {
    for (const std::string& message : messages) {
        bool all = true;
        for (const std::string& text : texts) all = all && message.find(text) != std::string::npos;
        if (all) return true;
    }
    return false;
}
