// Which instructions each side was compiled for, and the notice when a side
// was built for the baseline on a CPU with wider vectors.
#define BOOST_TEST_MODULE bench_side_targets
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/host/vector_extensions.hpp"
#include "side_targets.hpp"

namespace fb = forge::bench;

namespace {
using Strings = std::vector<std::string>;
Strings avx512_cpu() { return {"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512bw"}; }
}  // namespace

BOOST_AUTO_TEST_CASE(the_options_that_choose_instructions_are_the_target) {
    const forge::OptionsByLanguage side{{"CXX", {"-O3", "-mavx2", "-Wall", "-mfma"}},
                                        {"C", {"-mno-avx512f", "-mtune=native"}}};
    Strings target = fb::target_options("-O2 -g -march=native -DNDEBUG", side);
    std::sort(target.begin(), target.end());
    BOOST_TEST(target == (Strings{"-march=native", "-mavx2", "-mfma", "-mno-avx512f"}),
               boost::test_tools::per_element());
    BOOST_TEST(
        fb::target_options("-O2 -g -DNDEBUG -falign-loops=64", {{"CXX", {"-fopenmp", "-mtune=native"}}}).empty());
    BOOST_TEST(fb::target_options("-mcpu=neoverse-v2", {}) == Strings{"-mcpu=neoverse-v2"});
    // An option in the flags and the side's own counts once.
    BOOST_TEST(fb::target_options("-march=x86-64-v3", {{"CXX", {"-march=x86-64-v3"}}}).size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_side_built_for_the_baseline_on_a_wider_cpu_is_said) {
    const auto both = fb::baseline_target_notice({}, {}, avx512_cpu());
    BOOST_TEST_REQUIRE(both.has_value());
    BOOST_TEST(both->starts_with("both sides were compiled for the architecture's baseline"));
    BOOST_TEST(both->find("on a CPU with AVX-512") != std::string::npos);
    BOOST_TEST(both->find("-march=native") != std::string::npos);

    const auto reference = fb::baseline_target_notice({}, {"-march=native"}, avx512_cpu());
    BOOST_TEST_REQUIRE(reference.has_value());
    BOOST_TEST(reference->starts_with("the reference was compiled"));
    const auto student = fb::baseline_target_notice({"-mavx2"}, {}, {"sse4_2", "avx", "avx2"});
    BOOST_TEST_REQUIRE(student.has_value());
    BOOST_TEST(student->find("the student was compiled") == 0u);
    BOOST_TEST(student->find("AVX2") != std::string::npos);
    BOOST_TEST(fb::baseline_target_notice({}, {}, {"asimd", "sve"}).value_or("").find("SVE") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(nothing_is_said_when_both_sides_chose_or_the_cpu_has_nothing_wider) {
    BOOST_TEST(!fb::baseline_target_notice({"-march=native"}, {"-mavx512f"}, avx512_cpu()));
    BOOST_TEST(!fb::baseline_target_notice({}, {}, {"sse", "sse2", "sse4_2", "avx"}));
    BOOST_TEST(!fb::baseline_target_notice({}, {}, {}));  // a CPU that does not say
}

// Read from this machine: /proc/cpuinfo's vector extensions, nothing else.
BOOST_AUTO_TEST_CASE(the_cpu_s_vector_extensions_are_cpuinfo_s) {
    for (const std::string& extension : fb::cpu_vector_extensions()) {
        const bool vector = extension.starts_with("sse") || extension.starts_with("avx") ||
                            extension.starts_with("fma") || extension.starts_with("f16c") ||
                            extension.starts_with("amx") || extension.starts_with("asimd") ||
                            extension.starts_with("sve") || extension.starts_with("sme");
        BOOST_TEST(vector, extension);
    }
}
