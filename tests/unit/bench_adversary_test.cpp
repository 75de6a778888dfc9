#define BOOST_TEST_MODULE bench_adversary
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/region.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"
#include "forge/exit_code.hpp"
#include "bench_add_operator.hpp"
#include "c_regions.h"
#include "runtime/host/cache_flush.hpp"

// One student per trick a student could use to win without doing the work; each
// test holds the harness to catching it and saying what happened.
namespace fb = forge::bench;
using nlohmann::json;

namespace {

fb::Bench add_bench(fb::Call student, bool with_prep = false) {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 256}}, 20 + i);
    add_tensors(b);
    b.reference(add);
    b.student(std::move(student));
    if (with_prep) {
        // s = a, produced outside every window and handed to both sides.
        b.prep([](fb::PrepIo& io) {
            const fb::Tensor& a = io.in("a");
            fb::Tensor& s = io.out("s", a.shape(), a.dtype());
            std::memcpy(s.raw(), a.raw(), a.bytes());
        });
    }
    return b;
}

}  // namespace

BOOST_AUTO_TEST_CASE(outputs_kept_from_an_earlier_call_are_caught) {
    // Works only when its output looks unwritten; otherwise returns what the last
    // call left there (the correctness calls, which start from poison, pass).
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         if (std::isnan(io.out("c").span<float>()[0])) add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's", "'c'", "outputs cached between calls"}));
}

BOOST_AUTO_TEST_CASE(outputs_kept_from_the_previous_call_on_the_same_tensors_are_caught_in_every_workload) {
    // Skips its work when handed the output it wrote last call (same address, not
    // the poison of a correctness call): rounds that repeated a side's call on one
    // layout and one input variant let it pass with a ratio of ~170.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                               static const void* last = nullptr;
                                               fb::Tensor& c = io.out("c");
                                               const bool again = c.raw() == last;
                                               last = c.raw();
                                               if (again && !std::isnan(c.span<float>()[0])) {
                                                   (void)io.in("a");
                                                   (void)io.in("b");
                                                   return;
                                               }
                                               add(io);
                                           }),
                                           add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    for (const std::string workload : {"w0", "w1", "w2"}) {
        BOOST_TEST(any_has(result.problems, {"workload '" + workload + "'", "student's timed call (eval.json rounds[",
                                             "outputs cached between calls"}),
                   workload);
    }
}

// Answers kept by what identifies the inputs (their length and two of their
// values), computed only the first time, as students on public
// leaderboards kept outputs by object identity (gpu-mode reference-kernels
// #102, #104, #142) or across iterations (flashinfer-bench #21). Its answers
// are right for inputs that come back unchanged, so no output check fails: it
// read 531.8 against a reference doing the same work. Fresh rounds' inputs are
// new to it, so there it does the work.
BOOST_AUTO_TEST_CASE(answers_kept_by_their_inputs_identity_are_caught_by_the_fresh_rounds) {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 4096}}, 30 + i);
    add_tensors(b);
    b.reference(add);
    // Keyed by contents alone (the leaderboard's also by address, which only
    // adds a first miss on each copy of the tensors): every seen round answers
    // from what the untimed calls and the warm-up kept.
    b.student([](fb::Io& io) {
        using Key = std::tuple<std::size_t, float, float>;
        static std::map<Key, std::vector<float>> kept;
        const auto a = io.in("a").span<const float>();
        const auto b_in = io.in("b").span<const float>();
        auto c = io.out("c").span<float>();
        const Key key{a.size(), a.front(), b_in.back()};
        if (const auto found = kept.find(key); found != kept.end()) {
            std::copy(found->second.begin(), found->second.end(), c.begin());
            return;
        }
        for (int pass = 0; pass < 32; ++pass) {  // the honest work: 32 times the reference's
            add(io);
            asm volatile("" ::: "memory");
        }
        kept[key].assign(c.begin(), c.end());
    });
    const fb::RunResult result = quick_run(b, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    for (const std::string workload : {"w0", "w1", "w2"}) {
        BOOST_TEST(any_has(result.problems, {"workload '" + workload + "'",
                                             "the student's calls read faster on inputs they had seen before",
                                             "compute every call's outputs from its inputs"}),
                   workload);
    }
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["reuse"]["student_gained"] == true, "reuse " << w["reuse"].dump());
        BOOST_TEST(w["reuse"]["gain"].get<double>() > 5.0);
    }
}

// Answers learned on a workload's first two calls (the untimed calls, one per
// input variant) and then looked up by the nearest a[0]: right on every call the
// variants come back, without any work. A fresh round's inputs are new, so
// its looked-up answer is for other contents.
BOOST_AUTO_TEST_CASE(answers_looked_up_by_a_few_input_values_fail_against_the_reference_on_fresh_inputs) {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 4096 + i}}, 30 + i);
    add_tensors(b);
    b.reference(add);
    b.student([](fb::Io& io) {
        static std::map<std::size_t, std::vector<std::pair<float, std::vector<float>>>> learned_by_size;
        const auto a = io.in("a").span<const float>();
        (void)io.in("b");
        auto c = io.out("c").span<float>();
        auto& learned = learned_by_size[a.size()];
        if (learned.size() < 2) {
            add(io);
            learned.emplace_back(a.front(), std::vector<float>(c.begin(), c.end()));
            return;
        }
        const auto nearest = std::min_element(learned.begin(), learned.end(), [&](const auto& x, const auto& y) {
            return std::abs(x.first - a.front()) < std::abs(y.first - a.front());
        });
        std::copy(nearest->second.begin(), nearest->second.end(), c.begin());
    });
    const fb::RunResult result = quick_run(b, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"output 'c' differs between the student and the reference on the fresh "
                                         "inputs of timed round",
                                         "keyed by where its inputs are or by a few of their values"}));
}

// A reading that moves the declared bytes faster than this machine's memory
// gives (its device.memory_bandwidth, times 2 on HOST): here a bench that
// declares 10 TB a call, so both sides are refused, with the figures, once the
// bandwidth has been measured again (a neighbour at the start reads it low).
BOOST_AUTO_TEST_CASE(a_reading_past_the_memorys_bandwidth_fails_the_run) {
    fb::Bench b = add_bench(add);
    b.work([](const fb::Workload&) { return fb::Work{.bytes = 1e13}; });
    // The ceiling holds only behind a flush that evicts: the full one, twice the
    // last-level cache (quick_options' 8 MiB leaves a 32 MiB L3 warm).
    fb::RunOptions options = quick_options();
    options.host_flush_bytes = 0;
    const fb::RunResult result = fb::run(b, add_contract(), options);
    const json& device = result.eval["device"];
    BOOST_TEST_REQUIRE(device["flush_probe"]["effective"] == true);  // else no ceiling holds, and none is applied
    BOOST_TEST(device["memory_bandwidth"]["gbps"].get<double>() > 0.1);
    BOOST_TEST(device["memory_bandwidth"]["measured_again"] == true);
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    for (const std::string side : {"student", "reference"}) {
        BOOST_TEST(
            any_has(result.problems, {"workload 'w0'", "the " + side + "'s median call",
                                      "1e+07 MB that bench.work declares", "past what this machine's memory gives",
                                      "at the run's start and again at its end", "refused past 2x that"}),
            side);
    }
}

// The same for arithmetic: a reading that does the declared FLOPs faster than
// this machine computes (its device.compute_peak: AMX's int8 dot products
// times 2 where the CPU has them, else fp32 multiply-adds on the widest
// vectors times 8): a bench declaring 10 PFLOP a call, so both sides are
// refused once the peak has been measured again.
BOOST_AUTO_TEST_CASE(a_reading_past_the_machines_arithmetic_fails_the_run) {
    fb::Bench b = add_bench(add);
    b.work([](const fb::Workload&) { return fb::Work{.flops = 1e16}; });
    const fb::RunResult result = quick_run(b, add_contract());
    const json& peak = result.eval["device"]["compute_peak"];
    BOOST_TEST_REQUIRE(peak["checked"] == true);
    BOOST_TEST(peak["gflops"].get<double>() > 1.0);
    BOOST_TEST(peak["threads"].get<int>() >= 1);
    BOOST_TEST(peak["measured_again"] == true);
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    for (const std::string side : {"student", "reference"}) {
        BOOST_TEST(any_has(result.problems,
                           {"workload 'w0'", "the " + side + "'s median call", "1e+07 GFLOP that bench.work declares",
                            "past what this machine computes", "at the run's start and again at its end",
                            peak["instructions"] == "amx-int8" ? "refused past 2x that" : "refused past 8x that"}),
                   side);
    }
}

BOOST_AUTO_TEST_CASE(a_call_that_changes_a_prep_tensor_is_caught) {
    const fb::RunResult result = quick_run(add_bench(
                                         [](fb::Io& io) {
                                             add(io);
                                             // Scribbles on the prep tensor it was handed read-only.
                                             auto* s = const_cast<float*>(io.in("s").data<float>());
                                             s[0] += 1.0F;
                                         },
                                         true),
                                     add_contract(256));
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"student's call changed the prep tensor 's'"}));
    BOOST_TEST(result.eval["performance"]["prep"]["mutated"] == json::array({"s"}));
}

BOOST_AUTO_TEST_CASE(a_declared_input_a_side_never_reads_is_noticed_once) {
    // Both sides are handed the prep step's s; the reference (add) never asks
    // for it, as a side would that recomputes what it is handed.
    const fb::RunResult result = quick_run(add_bench(
                                               [](fb::Io& io) {
                                                   (void)io.in("s");
                                                   add(io);
                                               },
                                               true),
                                           add_contract(256));
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    const std::string unread = "the reference's call did not read its declared input 's'";
    std::size_t said = 0;
    for (const json& notice : result.eval["notices"]) {
        if (notice.get<std::string>().starts_with(unread)) ++said;
        BOOST_TEST(notice.get<std::string>().find("the student's call did not read") == std::string::npos);
    }
    BOOST_TEST(said == 1u);
    BOOST_TEST(any_has(result.eval["notices"].get<std::vector<std::string>>(),
                       {unread, "no io.in(\"s\")", "take it off [reference].inputs"}));
}

// An input the bench makes that no side declares and no prep step reads reaches
// no call (a name misspelt in bench.cpp or window.toml): noticed once per run.
BOOST_AUTO_TEST_CASE(an_input_no_side_declares_and_no_prep_step_reads_is_noticed_once) {
    const auto with_bias = [](bool prep_reads_it) {
        fb::Bench bench = add_bench(add, prep_reads_it);
        bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
            rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
            rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
            rng.normal(in.add("bias", {w["n"]}, fb::DType::fp32));
        });
        if (prep_reads_it) {
            bench.prep([](fb::PrepIo& io) {
                const fb::Tensor& bias = io.in("bias");
                fb::Tensor& s = io.out("s", bias.shape(), bias.dtype());
                std::memcpy(s.raw(), bias.raw(), bias.bytes());
            });
        }
        return quick_run(bench, add_contract(prep_reads_it ? 256 : 0));
    };
    const fb::RunResult unread = with_bias(false);
    BOOST_TEST(unread.exit_code == forge::exit_code::ok);
    std::size_t said = 0;
    for (const std::string& notice : unread.notices) {
        said += notice.find("made 'bias', which neither side's inputs in window.toml declare") != std::string::npos;
    }
    BOOST_TEST(said == 1u);
    const fb::RunResult prepared = with_bias(true);
    BOOST_TEST(!any_has(prepared.notices, {"made 'bias'"}));
}

BOOST_AUTO_TEST_CASE(a_call_that_changes_its_input_is_named_not_called_cached) {
    // Computes in its input (llm.c's kernels take non-const pointers): a later
    // call on the same load would read the changed values.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         add(io);
                                         auto* a = const_cast<float*>(io.in("a").data<float>());
                                         a[3] = -a[3];
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's call changed its input 'a'", "read-only"}));
    BOOST_TEST(!any_has(result.problems, {"cached"}));
}

BOOST_AUTO_TEST_CASE(output_elements_a_call_never_writes_are_named_not_called_cached) {
    // Leaves the output's last 16 elements (a padding, say) as it found them.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         const auto a = io.in("a").span<float>();
                                         const auto b = io.in("b").span<float>();
                                         auto c = io.out("c").span<float>();
                                         for (std::size_t i = 0; i + 16 < c.size(); ++i) c[i] = a[i] + b[i];
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's call left 16 of 256 elements of 'c' unwritten",
                                         "declares its start with bench.accumulates(\"c\")"}));
    BOOST_TEST(!any_has(result.problems, {"cached"}));
    BOOST_TEST(!any_has(result.problems, {"reference's call left"}));
}

BOOST_AUTO_TEST_CASE(reading_an_undeclared_tensor_fails_the_run) {
    // Asks for a tensor window.toml does not give the student.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         (void)io.in("precomputed_c");
                                         add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"'precomputed_c'", "student"}));
}

BOOST_AUTO_TEST_CASE(a_tensor_read_as_another_dtype_names_the_side_and_the_workload) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         (void)io.in("a").data<double>();
                                         add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0': the student's call: tensor 'a' holds fp32 but was read as"}));
}

// A side's own exception (a .at() out of range in its code) fails the run
// naming the workload and the side, as the harness's refusals do.
BOOST_AUTO_TEST_CASE(a_call_that_throws_fails_the_run_naming_the_side_and_the_workload) {
    const fb::RunResult result =
        quick_run(add_bench([](fb::Io&) { throw std::out_of_range("vector::_M_range_check"); }), add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0': the student's call threw: vector::_M_range_check"}));
    const fb::RunResult odd = quick_run(add_bench([](fb::Io&) { throw 42; }), add_contract());
    BOOST_TEST(any_has(odd.problems, {"workload 'w0': the student's call threw something that is not"}));
}

BOOST_AUTO_TEST_CASE(an_undeclared_input_names_the_side_once) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         (void)io.in("z");
                                         add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0': the student's call asked for input 'z'"}));
}

BOOST_AUTO_TEST_CASE(a_c_region_left_open_or_ended_twice_fails_the_run_naming_the_side) {
    const fb::RunResult open = quick_run(add_bench([](fb::Io& io) {
                                       c_region_left_open();
                                       add(io);
                                   }),
                                   add_contract());
    BOOST_TEST(open.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(open.problems, {"workload 'w0': the student's call returned with 1 region(s) begun by "
                                       "forge_region_begin() and not ended"}));
    // What the student's timed calls left open is never the reference's, in any workload.
    BOOST_TEST(!any_has(open.problems, {"the reference's"}));
    for (const std::string workload : {"w1", "w2"}) {
        BOOST_TEST(any_has(open.problems, {"workload '" + workload + "': the student's call returned with 1 region(s)"}),
                   workload);
    }
    const fb::RunResult twice = quick_run(add_bench([](fb::Io& io) {
                                        add(io);
                                        c_region_ended_twice();
                                    }),
                                    add_contract());
    BOOST_TEST(twice.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(twice.problems, {"the student's call called forge_region_end() 1 time(s) with no region"}));
}

BOOST_AUTO_TEST_CASE(a_write_past_the_end_of_an_output_fails_the_run) {
    // One element too many: inside the allocator's rounding, so nothing else would notice.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         add(io);
                                         fb::Tensor& c = io.out("c");
                                         c.data<float>()[c.numel()] = 0.0F;
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's call wrote past the end of output 'c'"}));
}

// Both sides read 8 elements past the end of an input declared 8 short: the
// guard bytes they read are NaN, so the outputs fail the comparison (both reading
// the same finite garbage had agreed, and the run passed).
BOOST_AUTO_TEST_CASE(a_read_past_the_end_of_an_input_declared_short_fails_the_run) {
    const auto add_unchecked = [](fb::Io& io) {
        const float* a = io.in("a").data<float>();
        const float* b = io.in("b").data<float>();
        auto c = io.out("c").span<float>();
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + b[i];
    };
    fb::Bench bench{fb::Backend::host};
    for (int i = 0; i < 3; ++i) bench.workload("w" + std::to_string(i), {{"n", 256}}, 20 + i);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"] - 8}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) { return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}}; });
    bench.reference(add_unchecked);
    bench.student(add_unchecked);
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "output 'c'", "8 of them NaN or infinite",
                                         "read past the end"}));
}

// The same with an integer input (an index list declared 8 short): the guard
// bytes read as integers differ between the two sides' copies, so the outputs
// differ (one pattern for every guard had both sides agree, and the run passed).
BOOST_AUTO_TEST_CASE(a_read_past_the_end_of_an_integer_input_declared_short_fails_the_run) {
    const auto gather_unchecked = [](fb::Io& io) {
        const float* a = io.in("a").data<float>();
        const std::int32_t* index = io.in("b").data<std::int32_t>();
        auto c = io.out("c").span<float>();
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = a[i] + static_cast<float>(index[i] % 1000);
    };
    fb::Bench bench{fb::Backend::host};
    for (int i = 0; i < 3; ++i) bench.workload("w" + std::to_string(i), {{"n", 256}}, 30 + i);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        auto index = in.add("b", {w["n"] - 8}, fb::DType::i32).span<std::int32_t>();
        for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::int32_t>(i);
    });
    bench.outputs([](const fb::Workload& w) { return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}}; });
    bench.reference(gather_unchecked);
    bench.student(gather_unchecked);
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "output 'c' differs"}));
}

BOOST_AUTO_TEST_CASE(a_write_before_the_start_of_an_input_copy_fails_the_run) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         add(io);
                                         const_cast<float*>(io.in("b").data<float>())[-1] = 1.0F;
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"student's call wrote before the start of input 'b'"}));
}

namespace {

// A student that returns at once and leaves its work to a thread of its own: the
// thread writes the outputs only once the student's next call starts (long after
// the harness looked), or never, when abandoned. Waiting for a signal rather than
// a delay keeps it deterministic and never writes to a freed tensor.
class DeferringStudent {
public:
    void operator()(fb::Io& io) {
        finish_pending(io.workload().name);
        const auto a = io.in("a").span<const float>();
        const auto b = io.in("b").span<const float>();
        std::vector<float> sum(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) sum[i] = a[i] + b[i];
        pending_workload_ = io.workload().name;
        float* out = io.out("c").data<float>();
        pending_ = std::thread([this, out, result = std::move(sum)] {
            std::unique_lock lock(mutex_);
            signalled_.wait(lock, [this] { return go_ || abandon_; });
            if (go_) std::copy(result.begin(), result.end(), out);
        });
    }

    // The last call's work is abandoned: its tensors are gone.
    void abandon() { finish_pending({}); }

private:
    // The previous call's work completes now if it was for the same tensors.
    void finish_pending(const std::string& workload) {
        if (!pending_.joinable()) return;
        {
            const std::lock_guard lock(mutex_);
            (workload == pending_workload_ ? go_ : abandon_) = true;
        }
        signalled_.notify_one();
        pending_.join();
        go_ = abandon_ = false;
    }

    std::thread pending_;
    std::string pending_workload_;
    std::mutex mutex_;
    std::condition_variable signalled_;
    bool go_ = false;
    bool abandon_ = false;
};

}  // namespace

BOOST_AUTO_TEST_CASE(outputs_left_to_a_thread_that_finishes_after_return_are_caught) {
    DeferringStudent student;
    const fb::RunResult result = quick_run(add_bench([&student](fb::Io& io) { student(io); }), add_contract());
    student.abandon();
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    // Each call's outputs are checked when it returns: the untimed call's were never written.
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's call left", "of 'c' unwritten when it returned"}));
}

BOOST_AUTO_TEST_CASE(a_kernel_set_that_changes_between_samples_is_flagged_not_failed) {
    // Every other call takes a path the profiled call may not: its table would
    // then hide part of what the timed calls ran.
    int calls = 0;
    const fb::RunResult result = quick_run(add_bench([&calls](fb::Io& io) {
                                         const fb::region whole{"add"};
                                         if (++calls % 2 == 0) {
                                             const fb::region other{"other_path"};
                                         }
                                         add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    BOOST_TEST_REQUIRE(result.eval["performance"]["workloads"].size() == 3u);
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["kernel_set_changed"]["student"] == true, w["name"]);
        BOOST_TEST(w["kernel_set_changed"]["reference"] == false, w["name"]);
    }
    BOOST_TEST(any_has(result.notices, {"workload 'w0'", "student's timed calls ran the kernels",
                                        "other_path", "kernel set changed"}));
    BOOST_TEST(result.eval["notices"].size() == result.notices.size());
}

BOOST_AUTO_TEST_CASE(a_kernel_set_that_stays_the_same_is_not_flagged) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         const fb::region whole{"add"};
                                         add(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["kernel_set_changed"]["student"] == false, w["name"]);
    }
    // Notices about the machine (precision, drift) may come; none about kernels.
    BOOST_TEST(!any_has(result.notices, {"kernel"}));
}

namespace {

// A pointer chase of `steps` hops over `chase` (one cycle through every entry,
// Sattolo's shuffle): each hop waits for the last, so its time is where the
// entries are (L2, L3 or memory).
std::int64_t walk(const std::int64_t* chase, std::size_t steps) {
    std::int64_t at = 0;
    for (std::size_t i = 0; i < steps; ++i) at = chase[at];
    return at;
}

constexpr std::size_t chase_entries = std::size_t{64} << 10;  // 512 KiB: held by a core's L2, let alone an L3

bool flushes_lines(boost::unit_test::test_unit_id) { return fb::evicts_lines; }

}  // namespace

// A table a side builds once and re-reads on every call (a lookup table, a
// workspace) is state kept between calls: left in the caches, the side's
// calls would read it from there while the other side's tensors come from
// memory. Here the reference walks a chase handed to it as an input, the
// student the same chase copied into memory of its own on its first call:
// the same work, and only the student's could stay warm. The quick runs'
// 8 MiB sweep leaves 512 KiB in any last-level cache, so without the flush of
// the sides' own memory the student reads faster (2.5x on a Xeon VM).
BOOST_AUTO_TEST_CASE(a_table_a_side_keeps_between_calls_is_read_from_memory_as_its_inputs_are,
                     *boost::unit_test::precondition(flushes_lines)) {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 256}}, 40 + i);
    b.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
        const auto chase =
            in.add("chase", {static_cast<std::int64_t>(chase_entries)}, fb::DType::i64).span<std::int64_t>();
        for (std::size_t i = 0; i < chase.size(); ++i) chase[i] = static_cast<std::int64_t>(i);
        for (std::size_t i = chase.size() - 1; i > 0; --i) std::swap(chase[i], chase[rng.next() % i]);
    });
    b.outputs([](const fb::Workload& w) { return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}}; });
    b.reference([](fb::Io& io) {
        [[maybe_unused]] volatile std::int64_t sink =
            walk(io.in("chase").span<const std::int64_t>().data(), chase_entries);
        add(io);
    });
    b.student([](fb::Io& io) {
        static const std::vector<std::int64_t> kept = [&] {
            const auto chase = io.in("chase").span<const std::int64_t>();
            return std::vector<std::int64_t>(chase.begin(), chase.end());
        }();
        (void)io.in("chase");
        [[maybe_unused]] volatile std::int64_t sink = walk(kept.data(), chase_entries);
        add(io);
    });
    forge::WindowContract contract = add_contract();
    for (auto* inputs : {&contract.reference_inputs, &contract.student_inputs}) inputs->push_back("chase");
    const fb::RunResult result = quick_run(b, contract);
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok, result.eval["notices"].dump());
    BOOST_TEST(result.eval["device"]["side_memory_bytes"].get<std::size_t>() >= chase_entries * sizeof(std::int64_t));
    // The run's ratio, the geometric mean over workloads: a quick run's few
    // rounds beside other tests' memory traffic read one workload at 1.6x in CI.
    std::string workloads;
    for (const json& w : result.eval["performance"]["workloads"]) {
        workloads += " " + w["name"].get<std::string>() + " " + std::to_string(w["ratio"].get<double>());
    }
    const double ratio = result.eval["performance"]["ratio"].get<double>();
    BOOST_TEST(ratio < 1.5, "the student read " << ratio << "x the reference (workloads:" << workloads << ")");
}
